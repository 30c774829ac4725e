import { z } from "@hono/zod-openapi";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { mediaTypesOf } from "../../src/platform/registry";
import { operations } from "../../src/operations";

/**
 * Issue 29 §4: a nullable use of a named schema was emitted as `allOf: [{$ref}, {type: [object, null]}]`, which no
 * null passes, and a component first met as a nullable use became nullable itself (CharityAmount, DocumentEvidence).
 * The emitted description must accept null exactly where the reply's zod schema does: checked against zod's own
 * JSON Schema of every operation's output, at every property, through references, `allOf` and `anyOf`.
 */

type Schema = Record<string, any>;
let doc: { components: { schemas: Record<string, Schema> }; paths: Record<string, Record<string, Schema>> };

beforeAll(async () => {
  doc = (await (await exports.default.fetch(new Request("http://api.test/openapi.json"))).json()) as typeof doc;
});

/** Resolves `$ref`s (ours: #/components/schemas/X; zod's: #/$defs/X or #). */
const resolver =
  (root: Schema) =>
  (s: Schema): Schema => {
    let cur = s;
    for (let i = 0; i < 20 && typeof cur?.$ref === "string"; i++) {
      const ref = cur.$ref as string;
      const { $ref: _, ...siblings } = cur;
      const target =
        ref === "#"
          ? root
          : ref
              .split("/")
              .slice(1)
              .reduce((o: Schema, k: string) => o?.[k], root);
      cur = { ...target, ...siblings };
    }
    return cur;
  };

function acceptsNull(s: Schema, res: (s: Schema) => Schema): boolean {
  const r = res(s);
  if (r.not) return false;
  if (r.const !== undefined) return r.const === null;
  if (r.enum) return r.enum.includes(null);
  if (r.allOf && !r.allOf.every((x: Schema) => acceptsNull(x, res))) return false;
  if (r.anyOf && !r.anyOf.some((x: Schema) => acceptsNull(x, res))) return false;
  if (r.oneOf && !r.oneOf.some((x: Schema) => acceptsNull(x, res))) return false;
  if (r.type !== undefined) return [r.type].flat().includes("null");
  return true;
}

/** The properties and items a value of this schema (when not null) is read with: through refs, allOf and the anyOf branches. */
function parts(s: Schema, res: (s: Schema) => Schema): { props: Record<string, Schema[]>; items: Schema[] } {
  const out = { props: {} as Record<string, Schema[]>, items: [] as Schema[] };
  const visit = (x: Schema, depth: number) => {
    if (depth > 10) return;
    const r = res(x);
    for (const [k, v] of Object.entries((r.properties ?? {}) as Record<string, Schema>)) (out.props[k] ??= []).push(v);
    if (r.items && typeof r.items === "object") out.items.push(r.items);
    for (const sub of [...(r.allOf ?? []), ...(r.anyOf ?? []), ...(r.oneOf ?? [])]) visit(sub, depth + 1);
  };
  visit(s, 0);
  return out;
}

/** Where the two schemas disagree about null, by path (each path walked once, to a bounded depth). */
function nullDisagreements(zs: Schema, zres: (s: Schema) => Schema, es: Schema, eres: (s: Schema) => Schema, path: string, out: string[], depth = 0): void {
  if (depth > 12) return;
  const zNull = acceptsNull(zs, zres);
  const eNull = acceptsNull(es, eres);
  if (zNull !== eNull) out.push(`${path || "(reply)"}: zod ${zNull ? "accepts" : "refuses"} null, the description ${eNull ? "accepts" : "refuses"} it`);
  const zp = parts(zs, zres);
  const ep = parts(es, eres);
  for (const [k, zsubs] of Object.entries(zp.props)) {
    const esubs = ep.props[k];
    if (!esubs) {
      out.push(`${path}.${k}: not in the description`);
      continue;
    }
    nullDisagreements(zsubs[0], zres, esubs.length === 1 ? esubs[0] : { allOf: esubs }, eres, `${path}.${k}`, out, depth + 1);
  }
  if (zp.items.length && ep.items.length)
    nullDisagreements(zp.items[0], zres, ep.items.length === 1 ? ep.items[0] : { allOf: ep.items }, eres, `${path}[]`, out, depth + 1);
}

function walk(node: unknown, path: string, visit: (n: Schema, path: string) => void): void {
  if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${path}/${i}`, visit));
  else if (node && typeof node === "object") {
    visit(node as Schema, path);
    for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`, visit);
  }
}

describe("issue 29 §4: nullable references in the emitted OpenAPI description", () => {
  it("no allOf combines a $ref with a type that includes null (a null would fail the $ref)", () => {
    const bad: string[] = [];
    walk(doc, "", (n, path) => {
      if (!Array.isArray(n.allOf)) return;
      const hasRef = n.allOf.some((x: Schema) => typeof x.$ref === "string");
      const nullType = n.allOf.some((x: Schema) => [x.type].flat().includes("null"));
      if (hasRef && nullType) bad.push(path);
    });
    expect(bad).toEqual([]);
  });

  it("no component is nullable because of one of its uses: CharityAmount, DocumentEvidence, AccountsPeriod are objects", () => {
    for (const name of ["CharityAmount", "DocumentEvidence", "AccountsPeriod", "CharityReserves", "WatchLastSeen"])
      expect(doc.components.schemas[name]?.type, name).toBe("object");
  });

  // An image operation's reply is bytes, not JSON: nothing of it can be null.
  it.each(operations.filter((op) => !mediaTypesOf(op)).map((op) => [op.operationId, op] as const))(
    "%s: its reply's description accepts null exactly where its zod schema does",
    (_id, op) => {
      const ok = String(op.successStatus ?? 200);
      const emitted = doc.paths[op.path.replace(/:(\w+)/g, "{$1}")][op.method].responses[ok].content["application/json"].schema as Schema;
      const zodJson = z.toJSONSchema(op.output, { io: "output", unrepresentable: "any", reused: "ref", cycles: "ref" }) as Schema;
      const out: string[] = [];
      nullDisagreements(zodJson, resolver(zodJson), emitted, resolver(doc as unknown as Schema), "", out);
      expect(out).toEqual([]);
    },
  );
});
