import { Island } from "../../lib/island.tsx";
import UsersTable from "./islands/UsersTable.tsx";
import type { UsersProps } from "./types.ts";

/** The users page: greeting, then the table island with the first page of users. */
export function UsersPage({ name, ...props }: UsersProps & { name: string }) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Welcome, {name}</h1>
      </div>
      <p className="page-intro">Manage users here.</p>
      <Island src="ui/admin/users/islands/UsersTable.tsx" component={UsersTable} props={props} />
    </section>
  );
}
