import type { Browser } from "../../services/web/rendered";
import { UpstreamError } from "../../shared/errors";

/** Placeholder while the browser source is written. */
export function createBrowser(_binding: Fetcher | undefined, _opts: { testHosts: string[]; resolve: (host: string) => Promise<string[]> }): Browser {
  return {
    available: false,
    render: async () => {
      throw new UpstreamError("browser", "not_configured", "Browser Rendering is not configured.");
    },
  };
}
