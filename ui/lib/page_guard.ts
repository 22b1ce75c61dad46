import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../api/lib/context.ts";
import { type AbilityName, can, type PolicyUser, refusalOf, refusedPage } from "../../lib/policy.ts";

/**
 * The ability each page needs, by path; the first match wins (most specific first). Every page
 * under a prefix is covered, new ones included, so page handlers carry no redirects of their own.
 */
export const PAGE_ABILITIES: readonly (readonly [path: string, ability: AbilityName])[] = [
  ["/sales/templates", "sales.admin"],
  ["/sales", "sales.read"],
  ["/admin/companies", "companies.view"],
  ["/pt/parts", "parts.view"],
];

/** The ability a page path needs, if any. */
export function pageAbility(path: string): AbilityName | undefined {
  return guarded(path)?.[1];
}

/** The entry of PAGE_ABILITIES that covers `path`. */
const guarded = (path: string) => PAGE_ABILITIES.find(([p]) => path === p || path.startsWith(`${p}/`));

/**
 * The page guard: a signed-in user without the page's ability goes where the policy says (the
 * spec's /signin for templates and companies, which sends a signed-in user on to the welcome page;
 * else the welcome page), before the page is built. The welcome page is told which page was refused
 * (`?refused=`), so it can say why instead of leaving the user wondering.
 */
export const pageGuard = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get("user");
  const need = pageAbility(c.req.path);
  if (user && need && !can(user, need)) {
    const welcome = `/?refused=${encodeURIComponent(c.req.path)}`;
    const to = refusedPage(need) === "/signin" ? `/signin?next=${encodeURIComponent(welcome)}` : welcome;
    return c.redirect(to, 302);
  }
  await next();
});

/**
 * Why `user` was sent away from `path` (the guard's `?refused=`), if they indeed may not open it. The notice
 * names the guarded section (its prefix), never the text of the URL: a crafted link cannot put words in it.
 */
export function refusedNotice(user: PolicyUser, path: string | undefined): string | undefined {
  const match = path ? guarded(path) : undefined;
  if (!match || can(user, match[1])) return undefined;
  return `You cannot open ${match[0]}: ${refusalOf(user, match[1])}`;
}
