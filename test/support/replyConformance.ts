import { Validator } from "@cfworker/json-schema";
import { exports } from "cloudflare:workers";
import { operations } from "../../src/operations";

/**
 * Issue 29 §4: every real reply a test receives is checked against the EMITTED OpenAPI description (/openapi.json,
 * what an outside client or fuzzer reads), not only the zod schema it was made from: the operation's documented
 * status, and the JSON body against the schema documented for that status, by a JSON Schema validator
 * (@cfworker/json-schema: workerd forbids eval, so Ajv's compiled validators do not run here).
 *
 * Every call goes through the gateway's `execute` (HTTP, MCP and tests that call it directly): test/setup.ts wraps it
 * with `checkReply`, and fails the test file in afterAll when any reply did not conform.
 */

type Schema = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components: Record<string, unknown>;
}

let doc: Promise<Doc> | null = null;
const validators = new Map<string, Validator>();

/** The description as served, read once per test file. */
export const emittedDoc = (): Promise<Doc> => {
  doc ??= exports.default.fetch(new Request("http://api.test/openapi.json")).then((r) => r.json() as Promise<Doc>);
  return doc;
};

/** What did not conform, one line each: `operationId status: where: why` (test/setup.ts reports them). */
export const nonConforming: string[] = [];

/** The operation described at this method and Hono path (`/api/v1/x/:id` is `/api/v1/x/{id}` in the description). */
const described = (d: Doc, method: string, path: string) => d.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];

/**
 * Checks one reply of the operation at `method path`: its status is documented for it, and its body validates
 * against the schema the description gives that status. Returns the problems (none: []).
 */
export async function replyProblems(method: string, path: string, status: number, body: unknown): Promise<string[]> {
  const d = await emittedDoc();
  const op = described(d, method, path);
  if (!op) {
    // An operation with no route (one a test defines and calls through the gateway) is not the description's to judge;
    // an operation of the registry is always routed, so one missing from the description is a problem.
    const routed = operations.some((o) => o.method === method.toLowerCase() && o.path === path);
    return routed ? [`${method.toUpperCase()} ${path}: not in the description`] : [];
  }
  const name = op.operationId ?? `${method} ${path}`;
  const response = op.responses[String(status)];
  if (!response) return [`${name} ${status}: status not documented for the operation`];
  const schema = response.content?.["application/json"]?.schema;
  if (!schema) return [];
  const key = `${name} ${status}`;
  let v = validators.get(key);
  if (!v) {
    v = new Validator({ ...schema, components: d.components } as never, "2020-12", false);
    validators.set(key, v);
  }
  const r = v.validate(body);
  if (r.valid) return [];
  // The deepest errors say where; the outer ones only repeat that a branch failed.
  const errors = r.errors.filter((e) => !/^(?:\$ref|allOf|anyOf|oneOf|properties|items|additionalProperties)$/.test(e.keyword));
  return (errors.length ? errors : r.errors).slice(0, 5).map((e) => `${key}: ${e.instanceLocation}: ${e.error}`);
}

/** Records the problems of one reply (and says them on stderr: console.log is swallowed in workerd tests). */
export async function checkReply(method: string, path: string, status: number, body: unknown): Promise<void> {
  const problems = await replyProblems(method, path, status, body).catch((e: unknown) => [
    `${method.toUpperCase()} ${path} ${status}: the check failed: ${String(e)}`,
  ]);
  if (!problems.length) return;
  console.error(`reply not as described: ${problems.join("; ")}`);
  nonConforming.push(...problems);
}
