import { changesFeed } from "./changesFeed";
import { OGL } from "./lookup";

export const charityCheckChanges = changesFeed({
  source: "charity",
  operationId: "listCharityChanges",
  path: "/api/v1/charity-check/changes",
  title: "Charity register: changes",
  registerName: "Charity Commission register of charities",
  kinds: ["added", "removed", "returned", "status"],
  kindHelp: "charities `added`, `removed` (dropped from the extract), `returned` or `status` (e.g. Registered to Removed).",
  keptSince: "the first edition this installation loaded",
  attribution: "Source: Charity Commission for England and Wales.",
  licence: OGL,
});
