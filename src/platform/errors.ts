/** The error table and ApiError live in the shared kernel (src/shared/errors.ts), which every layer may import. */
export * from "../shared/errors";
