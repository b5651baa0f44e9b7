import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { MessageImage } from '../../../../shared/events.js';
import { client } from '../../api/index.js';
import { CloseIcon } from '../../ui/icons.js';
import { chatImageUrl, rememberImage, rememberedImage } from './chat-images.js';

/** An image's picture: remembered, else read from the service once; null while it comes (or if it cannot). */
function useImageUrl(messageId: string, image: MessageImage): string | null {
  const [url, setUrl] = useState<string | null>(() => rememberedImage(image.id) ?? null);
  useEffect(() => {
    const known = rememberedImage(image.id);
    if (known) return setUrl(known);
    // A message being sent has no stored images yet: its own pictures are remembered (draftImages).
    if (!messageId.startsWith('msg_')) return;
    let live = true;
    client
      .call('messages.image_data', { message_id: messageId, image_id: image.id })
      .then((got) => {
        const loaded = chatImageUrl(got);
        rememberImage(image.id, loaded);
        if (live) setUrl(loaded);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [messageId, image.id]);
  return url;
}

/** The picture at full size, in a modal that closes on Escape, its button, or a click beside it. */
function FullSize({ image, url, onClose }: { image: MessageImage; url: string; onClose: () => void }) {
  const intl = useIntl();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="image-viewer"
      aria-label={image.name}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <button type="button" className="image-viewer-close" onClick={onClose} aria-label={intl.formatMessage({ id: 'chat.images.close' })} autoFocus>
        <CloseIcon />
      </button>
      <img src={url} alt={image.name} className="image-viewer-img" />
    </dialog>
  );
}

function Thumbnail({ messageId, image }: { messageId: string; image: MessageImage }) {
  const intl = useIntl();
  const url = useImageUrl(messageId, image);
  const [open, setOpen] = useState(false);
  return (
    <li className="message-image">
      <button
        type="button"
        className="message-image-button"
        disabled={url === null}
        aria-label={intl.formatMessage({ id: 'chat.images.open' }, { name: image.name })}
        onClick={() => setOpen(true)}
      >
        {url ? <img src={url} alt={image.name} className="message-image-thumb" /> : <span className="message-image-loading" />}
      </button>
      {open && url ? <FullSize image={image} url={url} onClose={() => setOpen(false)} /> : null}
    </li>
  );
}

/** The images sent with a question, as thumbnails that open full size. */
export function MessageImages({ messageId, images }: { messageId: string; images: readonly MessageImage[] }) {
  const intl = useIntl();
  if (images.length === 0) return null;
  return (
    <ul className="message-images" aria-label={intl.formatMessage({ id: 'chat.images.list' }, { count: images.length })}>
      {images.map((image) => (
        <Thumbnail key={image.id} messageId={messageId} image={image} />
      ))}
    </ul>
  );
}
