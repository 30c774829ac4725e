import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

export class KeyLedger extends DurableObject<Env> {}
