import type { AnyOperation } from "../platform/registry";
import { getAccount } from "./account/getAccount";
import { signup } from "./account/signup";
import { verifySignup } from "./account/verifySignup";
import { latePayment } from "./money/latePayment";
import { companyLogo } from "./web/companyLogo";

/** Every operation of the service, once. Routes, OpenAPI, Markdown, the catalog and MCP tools come from this list. */
export const operations: readonly AnyOperation[] = [latePayment, companyLogo, signup, verifySignup, getAccount] as unknown as AnyOperation[];
