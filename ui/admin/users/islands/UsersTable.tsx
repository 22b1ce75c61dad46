import { useState } from "react";
import { Button } from "react-aria-components";
import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { SearchBox } from "../../../components/SearchBox.tsx";
import { Icon } from "../../../components/icons.tsx";
import { useListState } from "../../../components/list_state.ts";
import { Confirm } from "../../../primitives/Confirm.tsx";
import { api, download } from "../../../lib/api.ts";
import { setLoading, showError, showSnack } from "../../../lib/events.ts";
import { useHydrated } from "../../../lib/hooks.ts";
import { USER_PAGE_SIZES } from "../../../../api/admin/users/schemas.ts";
import { UserForm } from "../UserForm.tsx";
import type { UserRow, UsersProps, UsersQuery } from "../types.ts";

const COLUMNS: DataColumn<UserRow>[] = [
  { id: "name", header: "Name", cell: (u) => u.name },
  { id: "email", header: "Email", cell: (u) => u.email },
  { id: "phone", header: "Phone", cell: (u) => u.phone },
  { id: "company", header: "Company", cell: (u) => u.company.name },
  { id: "account_type", header: "Account Type", cell: (u) => u.account_type },
];

/** The users table: debounced search, download, paging, row actions and the user and delete dialogs. */
export default function UsersTable(props: UsersProps) {
  const hydrated = useHydrated();
  const list = useListState<UsersQuery, UserRow>({
    path: "/admin/accounts",
    endpoint: "/api/admin/users",
    query: props.query,
    data: props.data,
    quiet: true,
  });
  const { query } = list;
  // undefined: closed; null: a new user; a row: editing it.
  const [editing, setEditing] = useState<UserRow | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<UserRow | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      const res = await api<{ message?: string }>("/api/admin/users", {
        method: "DELETE",
        json: { id: deleting.id },
      });
      setDeleting(null);
      showSnack("success", res?.message ?? "Success");
      list.refetch();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  const exportRows = async () => {
    setLoading(true);
    try {
      const { search_name, sortBy, descending } = query;
      await download("/api/admin/users/download", {
        search_name,
        sortBy,
        descending,
        page: 1,
        rowsPerPage: -1,
      });
    } catch (e) {
      showError(e);
    } finally {
      setLoading(false);
    }
  };

  const details = (u: UserRow) => (
    <div className="row-details">
      <dl>
        <dt>Roles</dt>
        <dd>{u.roles.length ? u.roles.join(", ") : "None"}</dd>
        <dt>Active</dt>
        <dd>{u.active ? "Yes" : "No"}</dd>
        {u.isSalesRep && (
          <>
            <dt>Sales Rep</dt>
            <dd>Yes</dd>
          </>
        )}
      </dl>
      <div className="row-actions">
        {props.can.edit && (
          <Button className="icon-btn" aria-label="Edit" onPress={() => setEditing(u)}>
            <Icon name="edit" />
          </Button>
        )}
        {props.can.delete && (
          <Button
            className="icon-btn icon-btn-danger"
            aria-label="Delete"
            onPress={() => setDeleting(u)}
          >
            <Icon name="delete" />
          </Button>
        )}
      </div>
    </div>
  );

  return (
    <>
      <div className="toolbar">
        <SearchBox
          label="Search for user"
          name="search_name"
          value={query.search_name ?? ""}
          keep={{ rowsPerPage: query.rowsPerPage, sortBy: query.sortBy, descending: query.descending }}
          onApply={(text) => list.update({ search_name: text || undefined, page: 1 })}
          debounceMs={300}
        />
        <span className="spacer" />
        <Button className="btn" onPress={exportRows} isDisabled={!hydrated}>
          <Icon name="download" size={20} />Download
        </Button>
        <Button className="btn btn-primary" onPress={() => setEditing(null)} isDisabled={!hydrated}>
          <Icon name="add" size={20} />Add User
        </Button>
      </div>
      <ListTable
        list={list}
        sizes={USER_PAGE_SIZES}
        label="Users"
        columns={COLUMNS}
        rowId={(u) => String(u.id)}
        renderExpanded={details}
        emptyText="No Users Found"
        loadingText="Downloading User Data..."
        hydrated={hydrated}
      />
      {editing !== undefined && (
        <UserForm
          user={editing}
          can={props.can}
          onClose={() => setEditing(undefined)}
          onSaved={(message) => {
            setEditing(undefined);
            showSnack("success", message);
            list.refetch();
          }}
        />
      )}
      <Confirm
        isOpen={deleting !== null}
        question="Are you sure you want to delete this user?"
        onCancel={() => setDeleting(null)}
        onConfirm={remove}
        busy={busy}
      />
    </>
  );
}
