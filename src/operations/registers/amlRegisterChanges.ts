import { changesFeed } from "./changesFeed";

export const amlRegisterChanges = changesFeed({
  source: "aml",
  operationId: "listAmlRegisterChanges",
  path: "/api/v1/aml-register/changes",
  title: "HMRC money-laundering register: changes",
  kinds: ["added", "removed", "returned", "status"],
  kindHelp: "premises entries `added`, `removed` (no longer in the file), `returned` (back after a removal) or `status` (re-statused, e.g. Applied to Approved).",
  keptSince: "7 October 2026",
});
