/**
 * The one table of plans. The free plan's 100 credits a month is SPEC §5.3 / §8; the others are ours.
 * Balances reset on the 1st of each calendar month (UTC); unused credits do not carry over.
 */
/**
 * `maxWatches`: companies an account may watch. A watch costs 2 credits a month, so the free plan's 100 credits
 * pay for at most 50; each limit leaves room for the plan's other calls. The daily read takes half the shared
 * Companies House budget (600 requests per 5 minutes) at about 5 requests a company: 17,280 companies a day for
 * every account together (docs/architecture.md "Watch list, event feed and webhooks"), so no one account may take more than 10,000 of them.
 */
export const PLANS = {
  free: { name: "Free", monthlyCredits: 100, burstPerMinute: 60, maxWatches: 25 },
  starter: { name: "Starter", monthlyCredits: 2_000, burstPerMinute: 60, maxWatches: 500 },
  growth: { name: "Growth", monthlyCredits: 10_000, burstPerMinute: 60, maxWatches: 2_500 },
  scale: { name: "Scale", monthlyCredits: 50_000, burstPerMinute: 60, maxWatches: 10_000 },
  team: { name: "Team (shared organisation pool)", monthlyCredits: 25_000, burstPerMinute: 60, maxWatches: 5_000 },
  /** Contracted volume, with a burst ceiling agreed per contract (also used by `npm run bench`). */
  enterprise: { name: "Enterprise", monthlyCredits: 10_000_000, burstPerMinute: 100_000, maxWatches: 10_000 },
} as const satisfies Record<string, { name: string; monthlyCredits: number; burstPerMinute: number; maxWatches: number }>;

export type PlanId = keyof typeof PLANS;

export const BURST_WINDOW_MS = 60_000;

export const isPlanId = (p: string): p is PlanId => Object.hasOwn(PLANS, p);

/**
 * The ledger an account draws on (the gateway for a call, the watch list's monthly charge alike): its organisation's
 * pool at the organisation's plan when pooled, else the account's own at the account's plan. `startingBalance` is a
 * key's one-month starting balance for the period in question; a pool opens at its plan's allowance.
 */
export function ledgerFor(a: {
  accountId: string;
  plan: string;
  orgId: string | null;
  orgPlan: string | null;
  pooled: number | boolean | null;
  startingBalance: number | null;
}): {
  name: string;
  pooled: boolean;
  plan: PlanId;
  allowance: number;
  startingBalance: number | null;
} {
  const pooled = !!(a.orgId && a.pooled);
  const plan: PlanId = pooled && a.orgPlan && isPlanId(a.orgPlan) ? a.orgPlan : isPlanId(a.plan) ? a.plan : "free";
  return {
    name: pooled ? `org:${a.orgId}` : `acct:${a.accountId}`,
    pooled,
    plan,
    allowance: PLANS[plan].monthlyCredits,
    startingBalance: pooled ? null : a.startingBalance,
  };
}

/** `YYYY-MM` of a time, UTC: the ledger's period. */
export const periodOf = (now: number): string => new Date(now).toISOString().slice(0, 7);
