import { changesFeed } from "./changesFeed";

export const charityCheckChanges = changesFeed({
  source: "charity",
  operationId: "listCharityChanges",
  path: "/api/v1/charity-check/changes",
  title: "Charity register: changes",
  kinds: ["added", "removed", "returned", "status"],
  kindHelp: "charities `added`, `removed` (dropped from the extract), `returned` or `status` (e.g. Registered to Removed).",
  keptSince: "the first edition this installation loaded",
});
