import { changesFeed } from "../../app/registers/changesFeed";

export const listSponsorLicenceChanges = changesFeed({
  source: "sponsors",
  operationId: "listSponsorLicenceChanges",
  path: "/api/v1/sponsor-licence/changes",
  title: "Licensed sponsors register: changes",
  kindHelp:
    "a sponsor (an organisation on the workers or the students register) `added`, `removed` (no longer listed: a licence revoked or surrendered disappears from the register) or `returned`; `status` (a student sponsor becoming, or ceasing to be, Subject to Action Plan; the workers register has no status, so there it matches nothing); `re-rated` (a rating changed on a route held in both editions, e.g. A rating to B rating); `routes` (routes gained or lost: `before.routes` and `after.routes` list them); `moved` (the town or towns rewritten; letter case or spacing alone is not a move). Routes are compared under their current names, so a route the Home Office renamed (e.g. Tier 2 General to Skilled Worker) is no change.",
  keptSince: "6 October 2026",
  exampleSince: "2026-06-01",
});
