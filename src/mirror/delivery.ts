/**
 * A Weblate webhook delivery, judged: its Standard Webhooks signature checked
 * by the `standardwebhooks` package (timestamp within five minutes), its id
 * refused when seen before, and the project and component its payload names.
 * Every answer is JSON; nothing here touches a socket or the mirror.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { ChangedPlace } from '../pull/refresh.ts';

export interface DeliveryRequest {
  method: string;
  /** The request-target's path. */
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
}

export interface DeliveryAnswer {
  status: number;
  body: Record<string, unknown>;
  /** An accepted delivery: what it names (undefined: it names no project, so everything is refreshed). */
  accepted?: { places: ChangedPlace[] | undefined };
}

/** Judges deliveries signed with `secret` (`whsec_` and base64, as Weblate's add-on takes it). */
export function deliveryJudge(secret: string): (request: DeliveryRequest) => DeliveryAnswer {
  const webhook = new Webhook(secret);
  const seen = new SeenIds(SEEN_IDS);
  return (request) => {
    if (request.path !== '/') return refuse(404, 'Deliveries are posted to /.');
    if (request.method !== 'POST') return refuse(405, `Method "${request.method}" not allowed.`);
    let payload: unknown;
    try {
      payload = webhook.verify(request.body, signatureHeaders(request.headers));
    } catch (error) {
      if (error instanceof WebhookVerificationError)
        return refuse(401, `The delivery's signature does not hold: ${error.message}.`);
      return refuse(400, 'The delivery is signed but its body is not JSON.');
    }
    const id = request.headers['webhook-id']!;
    if (seen.has(id)) return refuse(401, `The delivery ${id} was received before (a replay).`);
    seen.add(id);
    const places = placesNamed(payload);
    if (places === null) return refuse(400, 'The delivery is not a JSON object.');
    return { status: 202, body: { accepted: id }, accepted: { places } };
  };
}

/** Which secret a file holds: its text trimmed; null when empty. */
export function readSecret(text: string): string | null {
  const secret = text.trim();
  return secret === '' ? null : secret;
}

/** Whether `secret` is one the package can sign with (base64, `whsec_` before it or not). */
export function secretProblem(secret: string): string | null {
  try {
    new Webhook(secret);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

// --- internal ---

/** Delivery ids remembered, to refuse replays; the timestamp check bounds how old a replay can be. */
const SEEN_IDS = 10_000;

/** A set that forgets its oldest entries past `limit`. */
class SeenIds {
  private readonly ids = new Set<string>();
  constructor(private readonly limit: number) {}
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value!);
  }
}

function signatureHeaders(headers: DeliveryRequest['headers']): Record<string, string> {
  return {
    'webhook-id': headers['webhook-id'] ?? '',
    'webhook-timestamp': headers['webhook-timestamp'] ?? '',
    'webhook-signature': headers['webhook-signature'] ?? '',
  };
}

/** The project and component a payload names; undefined when it names none; null when it is no object. */
function placesNamed(payload: unknown): ChangedPlace[] | undefined | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const { project, component } = payload as Record<string, unknown>;
  if (typeof project !== 'string' || project === '') return undefined;
  return [{ project, component: typeof component === 'string' ? component : undefined }];
}

function refuse(status: number, detail: string): DeliveryAnswer {
  return { status, body: { detail } };
}
