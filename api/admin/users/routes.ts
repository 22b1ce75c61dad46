import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { setSessionCookie } from "../../middleware/session.ts";
import { withEtag } from "../../lib/preconditions.ts";
import {
  deleteUser,
  downloadUsers,
  endAllSessions,
  listCompanyUsers,
  listUsers,
  saveUser,
  searchUsers,
  UserListQuery,
  UserSearchQuery,
} from "./service.ts";

const UserIdBody = z.object({
  id: z.coerce.number({ error: "Required" }).int("Required").positive("Required"),
});

export const usersRoutes = new Hono<AppEnv>()
  .get("/admin/users", valid("query", UserListQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => listUsers(ctxOf(c), q));
  })
  .get("/admin/users/download", valid("query", UserListQuery), (c) => {
    return downloadUsers(ctxOf(c), c.req.valid("query"));
  })
  .post("/admin/users", valid("json", JsonObject), async (c) => {
    const ctx = ctxOf(c);
    const { user, sessionVersion } = await saveUser(ctx, c.req.valid("json"));
    if (sessionVersion === undefined) return withEtag(c, user);
    // Callers who changed their own password stay signed in here, and only here.
    const token = await c.get("services").signer.sign({
      sub: ctx.user.id,
      tid: c.get("tenant").tenant.id,
      ver: sessionVersion,
      sid: c.get("sessionId") ?? crypto.randomUUID(),
    });
    setSessionCookie(c, token);
    return withEtag(c, { ...user, access_token: token, token_type: "bearer" });
  })
  .post("/admin/users/logout-everywhere", valid("json", UserIdBody), async (c) => {
    return c.json(await endAllSessions(ctxOf(c), c.req.valid("json").id));
  })
  .delete("/admin/users", valid("json", UserIdBody), async (c) => {
    return c.json(await deleteUser(ctxOf(c), c.req.valid("json").id));
  })
  .get("/companyusers", valid("query", UserListQuery), async (c) => {
    return c.json(await listCompanyUsers(ctxOf(c), c.req.valid("query")));
  })
  .get("/users", valid("query", UserSearchQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => searchUsers(ctxOf(c), q));
  });
