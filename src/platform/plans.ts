/** The plans live in shared/ (the daily watch read charges by plan too); the platform's code imports them from here. */
export * from "../shared/plans";
