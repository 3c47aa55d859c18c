// The title row of a side panel (History, Comments, Pages): its name and a close button, which
// gives focus back to the top-bar button of the same name (the panel goes, and focus with it to
// the page, so a keyboard user started again from the top).
import { Icon } from './icons.tsx';

export function SidePanelHead({ title, onClose }: { title: string; onClose(): void }) {
  const close = () => {
    onClose();
    document.querySelector<HTMLElement>(`button[aria-pressed][aria-label="${title}"]`)?.focus();
  };
  return (
    <header className="side-panel-head">
      <h2>{title}</h2>
      <button type="button" className="tool" aria-label={`Close ${title.toLowerCase()}`} onClick={close}>
        <Icon name="close" size={16} />
      </button>
    </header>
  );
}
