import { changesFeed } from "../../app/registers/changesFeed";

export const listCharityChanges = changesFeed({
  source: "charity",
  operationId: "listCharityChanges",
  path: "/api/v1/charity-check/changes",
  title: "Charity register: changes",
  kindHelp:
    "charities (by charity number) `added`, `removed` (removed from the register, or dropped from the extract), `returned` (registered again) or `status`.",
  keptSince: "the first edition this installation loaded",
});
