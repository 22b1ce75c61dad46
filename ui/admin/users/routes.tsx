import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
export const usersPages = new Hono<AppEnv>();
