import { changesFeed } from "./changesFeed";

export const sponsorLicenceChanges = changesFeed({
  source: "sponsors",
  operationId: "listSponsorLicenceChanges",
  path: "/api/v1/sponsor-licence/changes",
  title: "Licensed sponsors register: changes",
  kinds: ["added", "removed", "returned", "re-rated", "moved"],
  kindHelp: "sponsor routes `added`, `removed`, `returned`, `re-rated` (e.g. A rating to B rating) or `moved` (town rewritten; a change of letter case or spacing is not a move).",
  keptSince: "6 October 2026",
});
