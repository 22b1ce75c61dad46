import type { ReactNode } from "react";
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from "react-aria-components";

/**
 * A modal form dialog (react-aria: focus trap, Escape, labelled by its heading). `persistent`
 * dialogs cannot be dismissed (the forced password update). Page scrolling is locked while open.
 */
export function Dialog({ title, isOpen, onClose, width = 500, persistent = false, children }: {
  title: string;
  isOpen: boolean;
  onClose?: () => void;
  width?: 500 | 600 | 750 | 800 | 1200;
  persistent?: boolean;
  children: ReactNode;
}) {
  return (
    <ModalOverlay
      className="modal-overlay"
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose?.()}
      isDismissable={!persistent}
      isKeyboardDismissDisabled={persistent}
    >
      <Modal className="modal" style={{ maxWidth: width }}>
        <AriaDialog className="dialog" role={persistent ? "alertdialog" : "dialog"}>
          <Heading slot="title" className="dialog-title">{title}</Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
