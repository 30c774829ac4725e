import { changesFeed } from "../../app/registers/changesFeed";

export const listSraChanges = changesFeed({
  source: "sra",
  operationId: "listSraChanges",
  path: "/api/v1/sra-check/changes",
  title: "SRA register: changes",
  kindHelp: "firms `added`, `removed` (no longer in the data), `returned` or `status` (re-statused, e.g. authorised to intervened).",
  keptSince: "8 October 2026",
});
