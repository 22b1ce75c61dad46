import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { Icon } from "../../../components/icons.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList, versionOf } from "../../../components/crud_list.ts";
import { Confirm, CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { useState } from "react";
import { showError, showSnack } from "../../../lib/events.ts";
import { api } from "../../../lib/api.ts";
import { USER_PAGE_SIZES } from "../types.ts";
import type { UserRow, UsersProps, UsersQuery } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";
import { GRANT_INFO } from "../../../../lib/policy.ts";

// Loaded when first opened (decision 022).
const UserForm = lazyDialog(() => import("../UserForm.tsx").then((m) => m.UserForm));

const COLUMNS: DataColumn<UserRow>[] = [
  { id: "name", header: "Name", essential: true, cell: (u) => u.name },
  { id: "email", header: "Email", essential: true, cell: (u) => u.email },
  { id: "phone", header: "Phone", cell: (u) => u.phone },
  { id: "company", header: "Company", cell: (u) => u.company.name },
  { id: "account_type", header: "Account Type", cell: (u) => u.account_type },
];

/** The users table: debounced search, download, paging, row actions and the user and delete dialogs. */
export default function UsersTable(props: UsersProps) {
  const crud = useCrudList<UsersQuery, UserRow>(
    {
      path: "/admin/accounts",
      endpoint: "/api/admin/users",
      query: props.query,
      data: props.data,
      quiet: true,
    },
    // The spec's delete names the user in the body.
    (u) => api("/api/admin/users", { method: "DELETE", json: { id: u.id }, version: versionOf(u) }),
  );
  const { list, hydrated, setEditing, setDeleting } = crud;

  // Log out everywhere: the row it asks about, and whether the call runs.
  const [signingOut, setSigningOut] = useState<UserRow | null>(null);
  const [signOutBusy, setSignOutBusy] = useState(false);
  const signOutEverywhere = async () => {
    if (!signingOut) return;
    setSignOutBusy(true);
    try {
      const res = await api<{ message: string }>("/api/admin/users/logout-everywhere", {
        method: "POST",
        json: { id: signingOut.id },
      });
      showSnack("success", res.message);
    } catch (e) {
      showError(e);
    } finally {
      setSigningOut(null);
      setSignOutBusy(false);
    }
  };

  const details = (u: UserRow) => (
    <div className="row-details">
      <dl>
        <dt>Roles</dt>
        <dd>
          {u.roles.length
            ? u.roles.map((r) => GRANT_INFO[r as keyof typeof GRANT_INFO]?.label ?? r).join(", ")
            : "None"}
        </dd>
        <dt>Active</dt>
        <dd>{u.active ? "Yes" : "No"}</dd>
        {u.isSalesRep && (
          <>
            <dt>Sales Rep</dt>
            <dd>Yes</dd>
          </>
        )}
      </dl>
      <EditDeleteActions
        preloadEdit={UserForm.preload}
        iconOnly
        onEdit={props.can.edit ? () => setEditing(u) : undefined}
        onDelete={props.can.delete ? () => setDeleting(u) : undefined}
      >
        {props.can.edit && (
          <button type="button" className="btn" onClick={() => setSigningOut(u)}>
            <Icon name="logout" size={18} />Log out everywhere
          </button>
        )}
      </EditDeleteActions>
    </div>
  );

  return (
    <>
      <div className="toolbar">
        <FilterFields
          list={list}
          fields={[{ key: "search_name", label: "Search for user" }]}
          textDebounceMs={300}
        />
        <span className="spacer" />
        <DownloadButton crud={crud} endpoint="/api/admin/users" />
        {/* Only those the server lets add a user see Add User (never a form that ends in 403). */}
        {props.can.edit && <NewButton crud={crud} preload={UserForm.preload} label="Add User" />}
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
      <CrudDialogs
        crud={crud}
        form={(user, dialog) => <UserForm user={user} can={props.can} {...dialog} />}
        question="Are you sure you want to delete this user?"
      />
      {signingOut !== null && (
        <Confirm
          isOpen
          question={`Sign ${signingOut.name} out on every device? They will need to sign in again.`}
          onCancel={() => setSigningOut(null)}
          onConfirm={signOutEverywhere}
          busy={signOutBusy}
          busyLabel="Signing out..."
        />
      )}
    </>
  );
}
