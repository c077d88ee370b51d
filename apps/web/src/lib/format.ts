/**
 * The web's formatting: the shared formatters (packages/shared/src/format.ts — the same ones the
 * server's mails use, so an amount reads the same in a mail and on screen) plus what only a browser
 * does.
 */
export * from '@pa/shared/format';
import { formatDate, formatNumber, formatTime } from '@pa/shared/format';

/**
 * Gets the formatters signed-in pages use first (numbers, dates, times) ready ahead of need, while
 * a page's code and data are still on their way (app/routes.tsx). The first Intl.NumberFormat
 * and Intl.DateTimeFormat a page creates are slow — tens of milliseconds each on a phone, one
 * long task in the page's first render — because Intl's locale data is set up then. In Chromium
 * that set-up is shared by the whole page process, whichever thread does it first: a throw-away
 * worker does it, off the main thread. Once it is done (or if workers are unavailable), the
 * page's own formatters are made from a task of their own; quick where the worker did its part.
 */
export function warmFormatters(locale: string): void {
  const makeOwn = () =>
    setTimeout(() => {
      formatNumber(0, locale);
      formatTime(0, locale);
      formatDate(0, locale);
    }, 0);
  let worker: Worker;
  let url: string;
  try {
    const lang = JSON.stringify(locale);
    url = URL.createObjectURL(new Blob([`new Intl.NumberFormat(${lang}).format(1);new Intl.DateTimeFormat(${lang}).format(0);postMessage(0);`], { type: 'text/javascript' }));
    worker = new Worker(url);
  } catch {
    makeOwn();
    return;
  }
  const done = () => {
    worker.terminate();
    URL.revokeObjectURL(url);
    makeOwn();
  };
  worker.onmessage = done;
  worker.onerror = done;
}

/** A date or time that must not break across lines ("Nov / 24", a time alone on the next line): its spaces made no-break. */
export const keepTogether = (text: string) => text.replace(/ /g, '\u00a0');
