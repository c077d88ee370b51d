/**
 * Sending over SMTP (issue 16) with nodemailer: one pooled transport per process (connections are
 * reused across mails), STARTTLS when the server offers it (or TLS from the start with smtps://),
 * and bounded waits so a dead mail server holds a dispatcher pass for seconds, never a request.
 */
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailConfig {
  /** SMTP_URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465. */
  smtpUrl: string;
  /** MAIL_FROM: the sender, e.g. "Acme Partners <partners@acme.example>". */
  from: string;
  /** PUBLIC_URL: the app's address as readers reach it; links in mails point under it. */
  publicUrl: string;
  /** APP_NAME: the name mails sign with; unset, the app's default name in the reader's language. */
  appName: string | null;
}

interface SendOutcome {
  ok: boolean;
  /** The server refused the mail for good (a 5xx answer): retrying cannot help. */
  permanent: boolean;
  error: string | null;
}

export class SmtpSender {
  private readonly transport: Transporter;

  constructor(private readonly config: MailConfig, options: { timeoutMs?: number } = {}) {
    const timeout = options.timeoutMs ?? 15_000;
    this.transport = nodemailer.createTransport({
      url: config.smtpUrl,
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout * 2,
    });
  }

  async send(mail: { id: string; to: string; subject: string; text: string; html: string }): Promise<SendOutcome> {
    try {
      await this.transport.sendMail({
        from: this.config.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        // The same Message-ID on every attempt, so a receiving system can tell a repeat.
        messageId: `<${mail.id}@${new URL(this.config.publicUrl).hostname}>`,
      });
      return { ok: true, permanent: false, error: null };
    } catch (error) {
      const e = error as { responseCode?: number; message?: string; code?: string };
      const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
      return { ok: false, permanent, error: (e.message ?? String(error)).slice(0, 500) };
    }
  }

  close() {
    this.transport.close();
  }
}
