// The users service, one verb per file under service/.
export { downloadUsers, listCompanyUsers, listUsers, UserListQuery } from "./service/list_users.ts";
export { searchUsers, type UserHit, UserSearchQuery } from "./service/search_users.ts";
export { type SavedUser, saveUser } from "./service/save_user.ts";
export { deleteUser } from "./service/delete_user.ts";
export { endAllSessions } from "./service/end_sessions.ts";
