// The title row of a side panel (History, Comments, Pages): its name and a close button.
import { Icon } from './icons.tsx';

export function SidePanelHead({ title, onClose }: { title: string; onClose(): void }) {
  return (
    <header className="side-panel-head">
      <h2>{title}</h2>
      <button type="button" className="tool" aria-label={`Close ${title.toLowerCase()}`} onClick={onClose}>
        <Icon name="close" size={16} />
      </button>
    </header>
  );
}
