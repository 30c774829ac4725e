/** Delivery of sign-up codes by email and SMS. Providers are configuration (EMAIL_PROVIDER, SMS_PROVIDER). */
export interface Messenger {
  sendEmail(to: string, subject: string, text: string): Promise<void>;
  sendSms(to: string, text: string): Promise<void>;
}

/**
 * Providers:
 * - `log`: writes the message to the Worker log (local development; `npm start` shows the codes).
 * - `http`: POSTs `{ to, subject?, text }` as JSON to EMAIL_ENDPOINT / SMS_ENDPOINT with `Authorization: Bearer`
 *   EMAIL_API_KEY / SMS_API_KEY, for any transactional email or SMS relay that accepts a JSON webhook.
 */
/** The messenger's configuration: EMAIL_PROVIDER, SMS_PROVIDER, the endpoints and their keys. */
export interface MessengerConfig {
  EMAIL_PROVIDER: string;
  SMS_PROVIDER: string;
  EMAIL_ENDPOINT?: string;
  SMS_ENDPOINT?: string;
  EMAIL_API_KEY?: string;
  SMS_API_KEY?: string;
}

export function messengerFor(env: MessengerConfig): Messenger {
  const post = async (endpoint: string | undefined, key: string | undefined, payload: Record<string, string>) => {
    if (!endpoint) throw new Error("message endpoint not configured");
    const r = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(5_000),
    });
    if (!r.ok) throw new Error(`message provider answered ${r.status}`);
  };
  return {
    async sendEmail(to, subject, text) {
      if (env.EMAIL_PROVIDER === "http") return post(env.EMAIL_ENDPOINT, env.EMAIL_API_KEY, { to, subject, text });
      console.log(JSON.stringify({ message: "email", to, subject, text }));
    },
    async sendSms(to, text) {
      if (env.SMS_PROVIDER === "http") return post(env.SMS_ENDPOINT, env.SMS_API_KEY, { to, text });
      console.log(JSON.stringify({ message: "sms", to, text }));
    },
  };
}
