/**
 * Where a deploy goes: `s3://BUCKET[/PREFIX]`, and the key each file of the
 * tree takes there (the prefix, then its path in the tree). Only keys under
 * the prefix are ever written, deleted or listed.
 */

export interface DeployTarget {
  bucket: string;
  /** Without leading or trailing slash; empty for the bucket's root. */
  prefix: string;
  /** The S3-compatible endpoint (`--endpoint`), or null for AWS itself. */
  endpoint: string | null;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** `s3://BUCKET[/PREFIX]` as a target, or what was expected. */
export function parseTarget(text: string, endpoint: string | null): Parsed<DeployTarget> {
  const match = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(text);
  if (!match)
    return { ok: false, message: `--to expects s3://BUCKET or s3://BUCKET/PREFIX (got "${text}")` };
  const bucket = match[1]!;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(bucket)) {
    return {
      ok: false,
      message: `--to expects a bucket name of letters, digits, ".", "-" and "_" after s3:// (got "${bucket}")`,
    };
  }
  const prefix = (match[2] ?? '').replace(/\/+$/, '');
  const segments = prefix === '' ? [] : prefix.split('/');
  if (
    segments.some(
      (segment) =>
        segment === '' ||
        segment === '.' ||
        segment === '..' ||
        // eslint-disable-next-line no-control-regex
        /[\u0000-\u001f\u007f\\]/.test(segment),
    )
  ) {
    return {
      ok: false,
      message: `--to expects a prefix of path segments without "//", "." or ".." and without control characters or "\\" (got "${prefix}")`,
    };
  }
  return { ok: true, value: { bucket, prefix, endpoint } };
}

/** The endpoint of an S3-compatible store, or what was expected. */
export function parseEndpoint(text: string): Parsed<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      message: `--endpoint expects the URL of an S3-compatible store, such as https://s3.example.org (got "${text}")`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: `--endpoint expects an http(s) URL (got "${text}")` };
  if (url.username || url.password || url.search || url.hash) {
    return {
      ok: false,
      message: `--endpoint expects a URL without credentials, query or fragment (got "${text}")`,
    };
  }
  return { ok: true, value: url.href.replace(/\/+$/, '') };
}

/** The key a file of the tree (path relative to its root, with `/`) takes at the target. */
export function keyOf(target: DeployTarget, path: string): string {
  return target.prefix ? `${target.prefix}/${path}` : path;
}

/** The target as the user wrote it: `s3://bucket/prefix` (and the endpoint). */
export function describeTarget(target: DeployTarget): string {
  const place = `s3://${target.bucket}${target.prefix ? `/${target.prefix}` : ''}`;
  return target.endpoint ? `${place} at ${target.endpoint}` : place;
}
