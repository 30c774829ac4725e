import { version } from "../../package.json";

/**
 * The API's version, said once: package.json's `version` (issue 28 §4, SPEC §9 rule 2). The OpenAPI description's
 * `info.version`, `GET /`, `/api/status`, the MCP server and the User-Agent of every fetch of ours (web pages, webhook
 * deliveries) all read it from here; nothing else states it (test/platform/version.test.ts).
 */
export const API_VERSION: string = version;
