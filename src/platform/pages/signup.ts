import { Html, html, layout } from "./html";

/**
 * `/signup` for a person: the two sign-up calls as three plain HTML forms (they work without JavaScript):
 * 1. email and mobile → 2. the two codes → 3. the key, shown once. Errors are said at the top of the form
 * (role="alert") and beside the field they concern.
 */

export interface FieldErrors {
  /** The summary at the top of the form. */
  message?: string;
  /** The field the error is about (email, mobile, emailCode, mobileCode). */
  field?: string;
}

const summary = (e: FieldErrors) =>
  e.message
    ? html`<div class="error-summary" role="alert" tabindex="-1" id="error-summary"><h2>There is a problem</h2><p>${e.message}${e.field ? html` <a href="#${e.field}">Go to the field</a>` : ""}</p></div>`
    : "";

function field(o: { id: string; label: string; hint: string; type: string; autocomplete: string; value?: string; errors: FieldErrors; extra?: string }) {
  const bad = o.errors.field === o.id;
  const describedBy = [`${o.id}-hint`, bad ? `${o.id}-error` : ""].filter(Boolean).join(" ");
  return html`<label for="${o.id}">${o.label}<span class="hint" id="${o.id}-hint">${o.hint}</span></label>
${bad ? html`<span class="field-error" id="${o.id}-error">${o.errors.message}</span>` : ""}
<input id="${o.id}" name="${o.id}" type="${o.type}" autocomplete="${o.autocomplete}" value="${o.value ?? ""}" aria-describedby="${describedBy}"${bad ? new Html(' aria-invalid="true"') : ""} required${new Html(o.extra ?? "")}>`;
}

/** Step 1: email and mobile. */
export function signupForm(values: { email?: string; mobile?: string } = {}, errors: FieldErrors = {}): string {
  const body = html`
<h1>Get a free API key</h1>
<p class="lead">The free plan gives 100 credits a month, with no card. We send one code to your email and one to your mobile; both must match before a key is issued.</p>
${summary(errors)}
<form method="post" action="/signup" novalidate>
${field({ id: "email", label: "Email address", hint: "For example dev@example.co.uk", type: "email", autocomplete: "email", value: values.email, errors })}
${field({ id: "mobile", label: "Mobile number", hint: "A UK number (07…) or an international one (+…)", type: "tel", autocomplete: "tel", value: values.mobile, errors })}
<p class="actions"><button type="submit">Send the codes</button></p>
</form>
<p>Already have a key? Signing up again with the same email or mobile adds a key to the same account, sharing its balance (at most 5 keys).</p>
`;
  return layout({ title: "Get a key", description: "Sign up for a free key: a verified email and mobile, 100 credits a month.", path: "/signup", body });
}

/** Step 2: the two codes. `local` says where the codes are when the service runs with the "log" message provider. */
export function codesForm(o: {
  challengeId: string;
  sentTo: { email: string; mobile: string };
  expiresAt: string;
  local: boolean;
  errors?: FieldErrors;
}): string {
  const errors = o.errors ?? {};
  const body = html`
<h1>Enter the two codes</h1>
<p class="lead">We sent a six-digit code to ${o.sentTo.email} and another to ${o.sentTo.mobile}. They expire at ${o.expiresAt.slice(11, 16)} UTC.</p>
${o.local ? html`<p class="notice">Running locally: the codes are printed in the <code>npm start</code> log, not sent.</p>` : ""}
${summary(errors)}
<form method="post" action="/signup/verify" novalidate>
<input type="hidden" name="challengeId" value="${o.challengeId}">
<input type="hidden" name="sentEmail" value="${o.sentTo.email}">
<input type="hidden" name="sentMobile" value="${o.sentTo.mobile}">
<input type="hidden" name="expiresAt" value="${o.expiresAt}">
${field({ id: "emailCode", label: "Code from the email", hint: "Six digits", type: "text", autocomplete: "one-time-code", errors, extra: ' inputmode="numeric" pattern="[0-9]{6}" maxlength="6"' })}
${field({ id: "mobileCode", label: "Code from the text message", hint: "Six digits", type: "text", autocomplete: "one-time-code", errors, extra: ' inputmode="numeric" pattern="[0-9]{6}" maxlength="6"' })}
<p class="actions"><button type="submit">Get my key</button> <a href="/signup">Start again</a></p>
</form>
`;
  return layout({ title: "Enter the codes", description: "Enter the codes sent to your email and mobile.", path: "/signup", body });
}

/** Step 3: the key, shown once. */
export function keyPage(o: { apiKey: string; keyId: string; plan: string; monthlyCredits: number; newAccount: boolean; origin: string }): string {
  const body = html`
<h1>Your API key</h1>
<div class="warning" role="note"><p><strong>Copy it now: this key will not be shown again.</strong> We keep only a hash of it. If you lose it, sign up again with the same email or mobile and revoke the old key.</p></div>
<label for="api-key">API key</label>
<output class="key" id="api-key">${o.apiKey}</output>
<p class="actions"><button type="button" id="copy-key" class="secondary" hidden>Copy the key</button> <span id="copy-status" role="status" aria-live="polite"></span></p>
${o.newAccount ? "" : html`<p class="notice">This email or mobile already had an account: the new key joins it and shares its balance. Signing up again never adds credits.</p>`}
<p>Key id <code>${o.keyId}</code> on the ${o.plan} plan: ${o.monthlyCredits} credits a month. Send it in the <code>x-api-key</code> header, for example:</p>
<pre><code>curl -H "x-api-key: YOUR_KEY" "${o.origin}/api/v1/late-payment?amount=2400&amp;due=2026-01-15&amp;paid=2026-02-05"</code></pre>
<p><a href="/docs">Try it in the API reference</a> · <a href="/">Home</a></p>
`;
  return layout({ title: "Your API key", description: "Your new API key, shown once.", path: "/signup", body, scripts: ["/assets/signup.js"] });
}
