import type { ReactNode } from "react";
import { Button } from "react-aria-components";
import { Icon } from "./icons.tsx";

/**
 * An expanded row's actions: Edit, then `children` (links such as "View Sales"), then Delete, each
 * button only when its handler is given. `iconOnly` draws icon buttons named by aria-label instead.
 */
export function EditDeleteActions({ onEdit, onDelete, iconOnly = false, children }: {
  onEdit?: () => void;
  onDelete?: () => void;
  iconOnly?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="row-actions">
      {onEdit && (iconOnly
        ? (
          <Button className="icon-btn" aria-label="Edit" onPress={onEdit}>
            <Icon name="edit" />
          </Button>
        )
        : (
          <Button className="btn" onPress={onEdit}>
            <Icon name="edit" size={18} />Edit
          </Button>
        ))}
      {children}
      {onDelete && (iconOnly
        ? (
          <Button className="icon-btn icon-btn-danger" aria-label="Delete" onPress={onDelete}>
            <Icon name="delete" />
          </Button>
        )
        : (
          <Button className="btn btn-danger-outline" onPress={onDelete}>
            <Icon name="delete" size={18} />Delete
          </Button>
        ))}
    </div>
  );
}
