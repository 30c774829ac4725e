import type { D1Migration } from "cloudflare:test";
import type { Env as AppEnv } from "../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      TEST_MIGRATIONS: D1Migration[];
      TEST_COMPANIES_MIGRATIONS: D1Migration[];
      /** "1" when ../shared (real sample files) is present beside the repo; tests reading it skip otherwise. */
      SHARED_PRESENT: string;
      BROWSER_PRESENT: string;
      /** Browser Rendering (the readers Worker's binding), given to the test Worker too for the browser's own tests. */
      BROWSER?: Fetcher;
      PERSON_NAMES: string;
    }
    interface GlobalProps {
      mainModule: typeof import("./worker");
      durableNamespaces: "KeyLedger";
    }
  }
}
