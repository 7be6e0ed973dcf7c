/**
 * Netlify's `_redirects` read as Netlify documents it reads them, for the files a build writes
 * (and Cloudflare Pages', which reads the same syntax but applies its rules first):
 * a file at the path (or its folder's `index.html`) is served before any rule that is not forced;
 * otherwise the first rule that matches wins, a path matching with or without its trailing slash,
 * `:name` one segment, `*` the rest, each `key=value` a query parameter that must be present
 * (`:name` binds it). Rules see the path as sent; a file is looked up with it decoded once.
 */

export interface Rule {
  from: string;
  query: [string, string][];
  to: string;
  status: number;
  force: boolean;
}

/** What Netlify answers a GET with: the file it serves (null: its 404 page), or a redirect. */
export function netlifyFileFor(
  files: ReadonlyMap<string, string>,
  url: string,
  /** Cloudflare Pages reads the same rules, but applies them before it looks for a file. */
  { rulesFirst = false } = {},
): { status: number; file: string | null; location?: string } {
  const { pathname, searchParams } = new URL(url, 'https://site.netlify.app');
  const rules = parseRedirects(files.get('_redirects') ?? '');
  const fileOf = (path: string) => decodeURIComponent(path).slice(1);
  const index = (file: string) =>
    file === '' ? 'index.html' : `${file.replace(/\/?$/, '/')}index.html`;
  const shadowed = [fileOf(pathname), index(fileOf(pathname))].find((file) => files.has(file));
  const forced = rules.some((rule) => rule.force && matchRule(rule, pathname, searchParams));
  if (shadowed && !forced && !rulesFirst) return { status: 200, file: shadowed };
  for (const rule of rules) {
    const target = matchRule(rule, pathname, searchParams);
    if (target === null) continue;
    if (rule.status >= 300 && rule.status < 400)
      return { status: rule.status, file: null, location: target };
    const file = fileOf(target);
    return files.has(file) ? { status: 200, file } : { status: 404, file: null };
  }
  return shadowed ? { status: 200, file: shadowed } : { status: 404, file: null };
}

export function parseRedirects(text: string): Rule[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const tokens = line.split(/\s+/);
      const status = /^(\d{3})(!?)$/.exec(tokens.at(-1)!);
      const body = status ? tokens.slice(0, -1) : tokens;
      return {
        from: body[0]!,
        query: body.slice(1, -1).map((token) => token.split('=') as [string, string]),
        to: body.at(-1)!,
        status: status ? Number(status[1]) : 301,
        force: status?.[2] === '!',
      };
    });
}

// --- internal ---

const withoutSlash = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);

export function matchRule(rule: Rule, pathname: string, query: URLSearchParams): string | null {
  const names: string[] = [];
  const source = withoutSlash(rule.from)
    .split('/')
    .map((part) => {
      if (part === '*') return names.push('splat') && '(.*)';
      if (part.startsWith(':')) return names.push(part.slice(1)) && '([^/]+)';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const found = new RegExp(`^${source}$`).exec(withoutSlash(pathname));
  if (!found) return null;
  const values = new Map(names.map((name, i) => [name, found[i + 1]!]));
  for (const [key, value] of rule.query) {
    const given = query.get(key);
    if (given === null) return null;
    if (value.startsWith(':')) values.set(value.slice(1), given);
    else if (value !== given) return null;
  }
  return rule.to.replace(
    /:([A-Za-z]\w*)/g,
    (placeholder, name: string) => values.get(name) ?? placeholder,
  );
}
