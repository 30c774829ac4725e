# Self-hosting the Worker on workerd: outbound network limited to public addresses.
#
# On Cloudflare, Workers cannot reach private networks at all: that is the lasting defence against a name
# that resolves to a private address after the service checked it (DNS rebinding). On a self-hosted workerd
# (or under `wrangler dev`), outbound fetch reaches whatever the host can reach, so run it with this network
# service as the Worker's `globalOutbound`: it connects to public addresses only and refuses loopback,
# link-local, private (RFC 1918, ULA) and other local ranges, whatever a name resolves to.
#
# Build the bundle with `npx wrangler deploy --dry-run --outdir dist`, list every module it wrote in `modules`
# below (index.js, and the text module wrangler names `<hash>-CHANGELOG.md`:
# `(name = "<hash>-CHANGELOG.md", text = embed "../dist/<hash>-CHANGELOG.md")`), then
# `workerd serve deploy/workerd-public-only.capnp` (workerd ships in node_modules/@cloudflare/workerd-*).
# This file was checked with that workerd: it parses (the network service is accepted); add your modules and bindings.
# The D1, Durable Object and Queue bindings of wrangler.toml must be added for your own storage; this file
# only fixes the outbound network, which is what this hardening needs.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "api", worker = .api),
    # "public" allows globally routable addresses only; the deny list names the local classes explicitly too.
    (name = "public-internet", network = (allow = ["public"], deny = ["local", "private", "network", "unix", "unix-abstract"], tlsOptions = (trustBrowserCas = true))),
  ],
  sockets = [(name = "http", address = "*:8787", http = (), service = "api")],
);

const api :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "../dist/index.js")],
  compatibilityDate = "2026-04-20",
  compatibilityFlags = ["nodejs_compat"],
  globalOutbound = "public-internet",
  # Per-IP limits (keyless demo, company-logo, sign-up): with no TRUST_CLIENT_IP_HEADER binding no header is believed
  # and keyless callers share one allowance. Behind a reverse proxy that overwrites a header with the caller's address,
  # name that header (for X-Forwarded-For the last entry is taken), e.g.:
  # bindings = [(name = "TRUST_CLIENT_IP_HEADER", text = "x-real-ip")],
);
