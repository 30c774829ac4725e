import { changesFeed } from "./changesFeed";
import { CQC_ATTRIBUTION } from "./cqcCheck";

export const cqcCheckChanges = changesFeed({
  source: "cqc",
  operationId: "listCqcChanges",
  path: "/api/v1/cqc-check/changes",
  title: "CQC register: changes",
  registerName: "Care Quality Commission register",
  kinds: ["added", "deregistered", "re-rated", "status", "returned"],
  kindHelp: "providers and locations `added`, `deregistered`, `re-rated` (filter with `rating`, e.g. Inadequate), `status` or `returned`.",
  keptSince: "2 October 2026",
  attribution: CQC_ATTRIBUTION,
  licence: "Open Government Licence v3.0",
  ratingFilter: true,
});
