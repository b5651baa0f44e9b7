export interface ProgressBarProps {
  /** 0 to 1. */
  value: number;
  /** What is progressing, read out by screen readers (the bar has no visible label of its own). */
  label: string;
  /** Visible text next to the bar, such as "1.2 MB of 3 MB". */
  text?: string;
}

/** A native `<progress>`, so assistive technology announces the value without ARIA of ours. */
export function ProgressBar({ value, label, text }: ProgressBarProps) {
  const clamped = Math.min(1, Math.max(0, value));
  return (
    <span className="progress">
      <progress className="progress-bar" max={1} value={clamped} aria-label={label} />
      {text ? <span className="progress-text">{text}</span> : null}
    </span>
  );
}
