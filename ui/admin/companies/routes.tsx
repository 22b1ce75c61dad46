import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
export const companiesPages = new Hono<AppEnv>();
