/**
 * Why a pull stopped, when the user can act on it: the server cannot be
 * reached, is not a Weblate API, refuses the token, or rate limits for longer
 * than allowed. Printed without a stack trace (exit 1); what was fetched so far
 * stays in the resume file.
 */
export class PullError extends Error {
  override name = 'PullError';

  /**
   * `resumable: false` when running the same command again cannot help (what the server serves is unusable);
   * `temporary` when a later run is expected to succeed (the network, a 5xx, a rate limit).
   */
  constructor(
    message: string,
    readonly options: { resumable?: boolean; temporary?: boolean } = {},
  ) {
    super(message);
  }
}
