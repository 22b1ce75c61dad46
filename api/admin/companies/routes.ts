import { Hono } from "hono";
import type { AppEnv } from "../../lib/context.ts";
export const companiesRoutes = new Hono<AppEnv>();
