import { describe, expect, it } from "vitest";
import { call, createTestKey, json } from "../../helpers";

describe("SPEC §1 rule 7 names only for verified accounts", () => {
  it.each([
    [false, false],
    [true, true],
  ])("SPEC §1 rule 7 a key made with verified: %s → account.canSeeNames %s", async (verified, canSeeNames) => {
    const { key } = await createTestKey({ verified });
    const r = await call("/api/v1/account", { key });
    expect(r.status).toBe(200);
    expect((await json(r)).canSeeNames).toBe(canSeeNames);
  });
});
