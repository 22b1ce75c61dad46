import type { ReactNode } from "react";
import { Icon } from "./icons.tsx";
import { Confirm } from "./CrudDialogs.tsx";
import { preloadOn } from "../lib/lazy_dialog.tsx";

/**
 * An expanded row's actions: Edit, then `children` (links such as "View Sales"), then Delete, each
 * button only when its handler is given. `iconOnly` draws icon buttons named by aria-label instead.
 * Reaching Edit starts loading the form (`preloadEdit`), reaching Delete the confirmation.
 */
export function EditDeleteActions({ onEdit, onDelete, preloadEdit, iconOnly = false, children }: {
  onEdit?: () => void;
  onDelete?: () => void;
  preloadEdit?: () => void;
  iconOnly?: boolean;
  children?: ReactNode;
}) {
  const edit = preloadOn(preloadEdit);
  const del = preloadOn(Confirm.preload);
  return (
    <div className="row-actions">
      {onEdit && (iconOnly
        ? (
          <button type="button" className="icon-btn" aria-label="Edit" onClick={onEdit} {...edit}>
            <Icon name="edit" />
          </button>
        )
        : (
          <button type="button" className="btn" onClick={onEdit} {...edit}>
            <Icon name="edit" size={18} />Edit
          </button>
        ))}
      {children}
      {onDelete && (iconOnly
        ? (
          <button
            type="button"
            className="icon-btn icon-btn-danger"
            aria-label="Delete"
            onClick={onDelete}
            {...del}
          >
            <Icon name="delete" />
          </button>
        )
        : (
          <button type="button" className="btn btn-danger-outline" onClick={onDelete} {...del}>
            <Icon name="delete" size={18} />Delete
          </button>
        ))}
    </div>
  );
}
