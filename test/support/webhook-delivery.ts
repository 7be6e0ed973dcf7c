/**
 * Deliveries as Weblate's Webhooks add-on sends them (Standard Webhooks): a `whsec_` secret in a
 * file, and the headers that sign a body with its key.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WebhookSecret {
  key: Buffer;
  /** The file `--webhook-secret-file` reads. */
  file: string;
}

/** A new random key, written into `dir` as Weblate shows it. */
export function writeWebhookSecret(dir: string, name = 'secret'): WebhookSecret {
  const key = randomBytes(32);
  const file = join(dir, name);
  writeFileSync(file, `whsec_${key.toString('base64')}\n`);
  return { key, file };
}

/**
 * The headers of one delivery of `body`, signed with `key`. Weblate sends a fractional timestamp
 * and signs its whole seconds; `seconds` sets another time (a stale delivery).
 */
export function signedDelivery(
  key: Buffer,
  body: string,
  options: { seconds?: number } = {},
): { id: string; headers: Record<string, string> } {
  const id = randomUUID().replaceAll('-', '');
  const timestamp = `${options.seconds ?? Date.now() / 1000}`;
  const whole = Math.floor(Number(timestamp));
  const signature = createHmac('sha256', key).update(`${id}.${whole}.${body}`).digest('base64');
  return {
    id,
    headers: {
      'Content-Type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    },
  };
}
