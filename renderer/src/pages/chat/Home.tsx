import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { client } from '../../api/index.js';
import { useLoader } from '../../ui/useLoader.js';

type Orientation = 'horizontal' | 'vertical';

/**
 * A row or column of buttons whose orientation comes from the config. Tab reaches each card; the
 * arrow keys of the carousel's direction move between them too.
 */
function Carousel({ label, orientation, children }: { label: string; orientation: Orientation; children: ReactNode }) {
  const list = useRef<HTMLUListElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const [back, forward] = orientation === 'horizontal' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown'];
    if (event.key !== back && event.key !== forward) return;
    const buttons = [...(list.current?.querySelectorAll('button') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    event.preventDefault();
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, index + (event.key === forward ? 1 : -1)))];
    next?.focus();
    next?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };
  return (
    <section className="carousel-section" aria-label={label}>
      <h2 className="carousel-title">{label}</h2>
      <ul ref={list} className={`carousel carousel-${orientation}`} data-orientation={orientation} onKeyDown={onKeyDown}>
        {children}
      </ul>
    </section>
  );
}

export interface HomeProps {
  onPrompt: (prompt: string, datasetId: string | null) => void;
  onDataset: (datasetId: string) => void;
  selectedDatasets: string[];
}

/** The Chat page before a thread is chosen: prompts and datasets to start from. */
export function Home({ onPrompt, onDataset, selectedDatasets }: HomeProps) {
  const prompts = useLoader(() => client.call('suggestions.prompts', {}));
  const datasets = useLoader(() => client.call('suggestions.datasets', {}));
  return (
    <div className="chat-home">
      <div className="chat-home-intro">
        <h2>What would you like to know?</h2>
        <p className="muted">Each message is answered by the model best suited to it, or by one you choose. Answers from your datasets cite their sources.</p>
      </div>
      {prompts.state.status === 'ready' && prompts.state.data.data.length > 0 ? (
        <Carousel label="Suggested prompts" orientation={prompts.state.data.orientation}>
          {prompts.state.data.data.map((p) => (
            <li key={p.id}>
              <button type="button" className="card-button" onClick={() => onPrompt(p.prompt, p.dataset_id)}>
                <span className="card-title">{p.title}</span>
                <span className="card-text">{p.prompt}</span>
              </button>
            </li>
          ))}
        </Carousel>
      ) : null}
      {datasets.state.status === 'ready' && datasets.state.data.data.length > 0 ? (
        <Carousel label="Suggested datasets" orientation={datasets.state.data.orientation}>
          {datasets.state.data.data.map((d) => (
            <li key={d.id}>
              <button type="button" className="card-button" aria-pressed={selectedDatasets.includes(d.id)} onClick={() => onDataset(d.id)}>
                <span className="card-title">{d.name}</span>
                <span className="card-text">{d.description ?? `${d.ready_count} files ready`}</span>
              </button>
            </li>
          ))}
        </Carousel>
      ) : null}
    </div>
  );
}
