import { changesFeed } from "../../app/registers/changesFeed";

export const listCqcChanges = changesFeed({
  source: "cqc",
  operationId: "listCqcChanges",
  path: "/api/v1/cqc-check/changes",
  title: "CQC register: changes",
  kindHelp: "providers and locations `added`, `deregistered`, `re-rated` (filter with `rating`, e.g. Inadequate), `status` or `returned`.",
  keptSince: "2 October 2026",
  ratingFilter: true,
});
