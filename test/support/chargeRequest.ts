import type { ChargeRequest } from "../../src/shared/ledger";
import { BURST_WINDOW_MS, periodOf } from "../../src/shared/plans";

/**
 * A charge request as the gateway sends it, for the ledger's tests (the rules on the in-memory ledger, the Durable
 * Object's own side, the two side by side): one credit for key_a in `now`'s month, the ledger's month opening at
 * `allowance`, a burst ceiling of `burstLimit` a minute; `over` changes any of it.
 */
export const chargeRequestFor =
  (allowance: number, burstLimit = 60) =>
  (now: number, over: Partial<ChargeRequest> = {}): ChargeRequest => ({
    cost: 1,
    keyId: "key_a",
    period: periodOf(now),
    allowance,
    startingBalance: null,
    burstLimit,
    burstWindowMs: BURST_WINDOW_MS,
    now,
    ...over,
  });
