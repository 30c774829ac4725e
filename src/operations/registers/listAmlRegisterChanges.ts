import { changesFeed } from "../../app/registers/changesFeed";

export const listAmlRegisterChanges = changesFeed({
  source: "aml",
  operationId: "listAmlRegisterChanges",
  path: "/api/v1/aml-register/changes",
  title: "HMRC money-laundering register: changes",
  kindHelp:
    "a registration (by MLR number; a business renamed keeps it) `added`, `removed` (no longer in the file), `returned` (back after a removal), `status` (re-statused, e.g. Applied to Approved, Approved to Expired) or `premises` (premises opened or closed: `before` and `after` give the number of premises and their postcode districts; a registration losing premises is not removed).",
  keptSince: "7 October 2026",
});
