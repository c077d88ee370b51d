/**
 * The mails (issue 16), in the reader's language: a subject, a few paragraphs, at most one button
 * (a link), and for the mails a person can turn off, a line saying where. Rendered once, when the
 * mail is written, to plain text and to simple HTML (inline styles only; every value escaped).
 *
 * Texts take `{name}` placeholders; a value is a string, a number, a money amount (formatted in the
 * reader's locale from integer minor units) or a calendar day. A number a text lists in `counted`
 * becomes a phrase in its plural form ("1 registration", "2 registrations"; one form in Chinese).
 */
import type { Locale, MailTemplate } from '@pa/shared';
import { DEFAULT_APP_NAME } from '@pa/shared';
import { minorUnitDigits } from '@pa/shared/format';

export type MailValue = string | number | { minor: number; currency: string } | { day: string } | { localized: Record<Locale, string> };
export type MailParams = Record<string, MailValue>;

/** A counted phrase by plural category (Intl.PluralRules of the reader's locale); `#` is the number. */
type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

interface Text {
  subject: string;
  /** Paragraphs; `{x}` are replaced by the escaped values. */
  body: string[];
  /** The button's label (its address is the `url` parameter). */
  action?: string;
  /** Numbers shown as counted phrases: `{x}` becomes the form of `x`'s plural category. */
  counted?: Record<string, Forms>;
}

type Texts = Record<MailTemplate, Text>;
interface Chrome {
  /** Under a mail a person can turn off. */
  optOut: string;
  /** Under every mail. */
  automatic: string;
  /** Plain-text lead-in to a link. */
  open: string;
  /** Between the button's label and its address in plain text (French puts a space before it, Chinese a full-width one). */
  colon: string;
}

// The staff's notification mails (issue 28) each say what waits now and where; "told again" lines
// say why a second mail may not come for a while (one per failing spell, one per set of breaches).
const en: Texts = {
  test: { subject: 'Test message from {app}', body: ['Hello,', 'This is a test message from {app}. If you can read it, e-mail works.'] },
  staff_invite: { subject: 'You are invited to the {app} console', body: ['Hello {name},', 'You have been invited to the {app} console. Set your password with the link below; it works once, within 30 minutes.'], action: 'Set my password' },
  password_reset: { subject: 'Set a new {app} password', body: ['Hello {name},', 'A link to set a new password for your {app} account was made for you. Your current password still works until you set a new one with the link below; it works once, within 30 minutes.'], action: 'Set a new password' },
  forgot_password: { subject: 'Reset your {app} password', body: ['Hello {name},', 'Someone asked to reset the password of your {app} account. If it was you, set a new one with the link below; it works once, within 30 minutes.', 'If it was not you, ignore this message: your password stays as it is.'], action: 'Reset my password' },
  verify_email: { subject: 'Confirm your e-mail address for {app}', body: ['Hello {name},', 'You added this address to your {app} account. Confirm it with the link below; it works once, within 24 hours. Once confirmed, your mails and password reset links come here.', 'If it was not you, ignore this message: the address will not be added.'], action: 'Confirm my address' },
  registration_approved: { subject: 'Welcome to {app}: your account is approved', body: ['Hello {name},', 'Your registration has been approved. You can sign in and start sharing your links.'], action: 'Open {app}' },
  registration_rejected: { subject: 'Your {app} registration', body: ['Hello {name},', 'We are sorry: your registration was not approved. If you think this is a mistake, reply to the person who invited you.'] },
  commission_digest: {
    subject: '{count} approved on {day}',
    body: ['Hello {name},', 'Approved on {day}: {count} of yours, {total} in all. The amount is added to your available balance.'],
    action: 'See my commissions',
    counted: { count: { one: '# commission', other: '# commissions' } },
  },
  withdrawal_paid: { subject: 'Your withdrawal is paid: {net}', body: ['Hello {name},', '{net} has been sent to your account {account}: your withdrawal of {amount}, less a fee of {fee}.', 'Payment reference: {reference}'], action: 'See the withdrawal' },
  withdrawal_failed: { subject: 'Your withdrawal of {amount} could not be paid', body: ['Hello {name},', 'The payment of your withdrawal of {amount} failed: {reason}. The amount is back in your available balance; check your payout account and withdraw again.'], action: 'See the withdrawal' },
  withdrawal_rejected: { subject: 'Your withdrawal of {amount} was rejected', body: ['Hello {name},', 'Your withdrawal of {amount} was rejected: {reason}. The amount is back in your available balance.'], action: 'See the withdrawal' },
  work_queue_summary: {
    subject: '{app}: {total} waiting for review',
    body: ['Hello {name},', 'Waiting for the team this morning: {registrations}, {enrollments}, {commissions}, {withdrawalsToApprove} and {withdrawalsToPay}.'],
    action: 'Open the console',
    counted: {
      total: { one: '# item is', other: '# items are' },
      registrations: { one: '# registration', other: '# registrations' },
      enrollments: { one: '# campaign application', other: '# campaign applications' },
      commissions: { one: '# commission to approve', other: '# commissions to approve' },
      withdrawalsToApprove: { one: '# withdrawal to approve', other: '# withdrawals to approve' },
      withdrawalsToPay: { one: '# withdrawal to pay', other: '# withdrawals to pay' },
    },
  },
  webhook_disabled: { subject: '{app}: a webhook endpoint was disabled', body: ['The webhook endpoint {url} was disabled: {reason}. Events for it are no longer sent.', 'Check the receiver, then enable the endpoint again in the console.'], action: 'Open the webhooks' },
  staff_registration: { subject: '{app}: a new registration awaits approval', body: ['Hello {name},', 'A new promoter registered and awaits approval. Waiting now: {count}.'], action: 'Open the registrations', counted: { count: { one: '# registration', other: '# registrations' } } },
  staff_enrollment: { subject: '{app}: a campaign application awaits approval', body: ['Hello {name},', 'A promoter asked to join a campaign. Waiting now: {count}.'], action: 'Open the applications', counted: { count: { one: '# application', other: '# applications' } } },
  staff_withdrawal: { subject: '{app}: withdrawal requested: {amount}', body: ['Hello {name},', 'A promoter asked to withdraw {amount}. Waiting for approval now: {count}.'], action: 'Open the withdrawals', counted: { count: { one: '# withdrawal', other: '# withdrawals' } } },
  mail_failing: { subject: '{app}: e-mail is failing', body: ['Hello {name},', 'A mail could not be sent: {error}. Mails are retried for several hours; check the mail server (SMTP_URL) and the console’s E-mail page.', 'You will be told again only after mail has worked once more.'], action: 'Open the E-mail page' },
  ledger_breach: { subject: '{app}: the ledger check found {count}', body: ['Hello {name},', 'A ledger check found {count}. Balances and reports may be wrong until it is mended: open the ledger check to see each one.', 'You will be told again only when the problems found change.'], action: 'Open the ledger check', counted: { count: { one: '# problem', other: '# problems' } } },
};
const fr: Texts = {
  test: { subject: 'Message de test de {app}', body: ['Bonjour,', 'Ceci est un message de test de {app}. Si vous le lisez, l’e-mail fonctionne.'] },
  staff_invite: { subject: 'Vous êtes invité à la console {app}', body: ['Bonjour {name},', 'Vous avez été invité à la console {app}. Définissez votre mot de passe avec le lien ci-dessous ; il fonctionne une fois, pendant 30 minutes.'], action: 'Définir mon mot de passe' },
  password_reset: { subject: 'Définissez un nouveau mot de passe {app}', body: ['Bonjour {name},', 'Un lien pour définir un nouveau mot de passe de votre compte {app} a été créé pour vous. Votre mot de passe actuel reste valable tant que vous n’en avez pas défini un nouveau avec le lien ci-dessous ; il fonctionne une fois, pendant 30 minutes.'], action: 'Définir un nouveau mot de passe' },
  forgot_password: { subject: 'Réinitialisez votre mot de passe {app}', body: ['Bonjour {name},', 'Quelqu’un a demandé à réinitialiser le mot de passe de votre compte {app}. Si c’est vous, choisissez-en un nouveau avec le lien ci-dessous ; il fonctionne une fois, pendant 30 minutes.', 'Si ce n’est pas vous, ignorez ce message : votre mot de passe ne change pas.'], action: 'Réinitialiser mon mot de passe' },
  verify_email: { subject: 'Confirmez votre adresse e-mail pour {app}', body: ['Bonjour {name},', 'Vous avez ajouté cette adresse à votre compte {app}. Confirmez-la avec le lien ci-dessous ; il fonctionne une fois, pendant 24 heures. Ensuite, vos e-mails et liens de réinitialisation du mot de passe arriveront ici.', 'Si ce n’est pas vous, ignorez ce message : l’adresse ne sera pas ajoutée.'], action: 'Confirmer mon adresse' },
  registration_approved: { subject: 'Bienvenue sur {app} : votre compte est approuvé', body: ['Bonjour {name},', 'Votre inscription a été approuvée. Vous pouvez vous connecter et commencer à partager vos liens.'], action: 'Ouvrir {app}' },
  registration_rejected: { subject: 'Votre inscription à {app}', body: ['Bonjour {name},', 'Nous sommes désolés : votre inscription n’a pas été approuvée. Si vous pensez qu’il s’agit d’une erreur, répondez à la personne qui vous a invité.'] },
  commission_digest: {
    subject: '{count} le {day}',
    body: ['Bonjour {name},', 'Le {day} : {count}, {total} au total. Le montant s’ajoute à votre solde disponible.'],
    action: 'Voir mes commissions',
    counted: { count: { one: '# commission approuvée', other: '# commissions approuvées' } },
  },
  withdrawal_paid: { subject: 'Votre retrait est payé : {net}', body: ['Bonjour {name},', '{net} a été versé sur votre compte {account} : votre retrait de {amount}, moins des frais de {fee}.', 'Référence du versement : {reference}'], action: 'Voir le retrait' },
  withdrawal_failed: { subject: 'Votre retrait de {amount} n’a pas pu être payé', body: ['Bonjour {name},', 'Le paiement de votre retrait de {amount} a échoué : {reason}. Le montant est revenu sur votre solde disponible ; vérifiez votre compte de paiement et refaites le retrait.'], action: 'Voir le retrait' },
  withdrawal_rejected: { subject: 'Votre retrait de {amount} a été refusé', body: ['Bonjour {name},', 'Votre retrait de {amount} a été refusé : {reason}. Le montant est revenu sur votre solde disponible.'], action: 'Voir le retrait' },
  work_queue_summary: {
    subject: '{app} : {total} une revue',
    body: ['Bonjour {name},', 'En attente de l’équipe ce matin : {registrations}, {enrollments}, {commissions}, {withdrawalsToApprove} et {withdrawalsToPay}.'],
    action: 'Ouvrir la console',
    counted: {
      total: { one: '# élément attend', other: '# éléments attendent' },
      registrations: { one: '# inscription', other: '# inscriptions' },
      enrollments: { one: '# candidature à une campagne', other: '# candidatures aux campagnes' },
      commissions: { one: '# commission à valider', other: '# commissions à valider' },
      withdrawalsToApprove: { one: '# retrait à approuver', other: '# retraits à approuver' },
      withdrawalsToPay: { one: '# retrait à payer', other: '# retraits à payer' },
    },
  },
  webhook_disabled: { subject: '{app} : un point de terminaison webhook a été désactivé', body: ['Le point de terminaison webhook {url} a été désactivé : {reason}. Ses événements ne sont plus envoyés.', 'Vérifiez le récepteur, puis réactivez le point de terminaison dans la console.'], action: 'Ouvrir les webhooks' },
  staff_registration: { subject: '{app} : une nouvelle inscription attend une validation', body: ['Bonjour {name},', 'Un nouveau promoteur s’est inscrit et attend une validation. En attente maintenant : {count}.'], action: 'Ouvrir les inscriptions', counted: { count: { one: '# inscription', other: '# inscriptions' } } },
  staff_enrollment: { subject: '{app} : une candidature à une campagne attend une validation', body: ['Bonjour {name},', 'Un promoteur a demandé à rejoindre une campagne. En attente maintenant : {count}.'], action: 'Ouvrir les candidatures', counted: { count: { one: '# candidature', other: '# candidatures' } } },
  staff_withdrawal: { subject: '{app} : retrait demandé : {amount}', body: ['Bonjour {name},', 'Un promoteur a demandé un retrait de {amount}. En attente d’approbation maintenant : {count}.'], action: 'Ouvrir les retraits', counted: { count: { one: '# retrait', other: '# retraits' } } },
  mail_failing: { subject: '{app} : l’envoi des e-mails échoue', body: ['Bonjour {name},', 'Un e-mail n’a pas pu être envoyé : {error}. Les e-mails sont réessayés pendant plusieurs heures ; vérifiez le serveur de messagerie (SMTP_URL) et la page E-mail de la console.', 'Vous ne serez prévenu à nouveau qu’après un envoi réussi.'], action: 'Ouvrir la page E-mail' },
  ledger_breach: { subject: '{app} : le contrôle du grand livre a trouvé {count}', body: ['Bonjour {name},', 'Un contrôle du grand livre a trouvé {count}. Les soldes et les rapports peuvent être faux tant que ce n’est pas corrigé : ouvrez le contrôle pour voir chacun.', 'Vous ne serez prévenu à nouveau que si les problèmes trouvés changent.'], action: 'Ouvrir le contrôle du grand livre', counted: { count: { one: '# problème', other: '# problèmes' } } },
};
const es: Texts = {
  test: { subject: 'Mensaje de prueba de {app}', body: ['Hola:', 'Este es un mensaje de prueba de {app}. Si puede leerlo, el correo funciona.'] },
  staff_invite: { subject: 'Le han invitado a la consola de {app}', body: ['Hola, {name}:', 'Le han invitado a la consola de {app}. Defina su contraseña con el enlace de abajo; funciona una vez, durante 30 minutos.'], action: 'Definir mi contraseña' },
  password_reset: { subject: 'Defina una nueva contraseña de {app}', body: ['Hola, {name}:', 'Se ha creado para usted un enlace para definir una nueva contraseña de su cuenta de {app}. Su contraseña actual sigue valiendo hasta que defina una nueva con el enlace de abajo; funciona una vez, durante 30 minutos.'], action: 'Definir una nueva contraseña' },
  forgot_password: { subject: 'Restablezca su contraseña de {app}', body: ['Hola, {name}:', 'Alguien pidió restablecer la contraseña de su cuenta de {app}. Si fue usted, elija una nueva con el enlace de abajo; funciona una vez, durante 30 minutos.', 'Si no fue usted, ignore este mensaje: su contraseña no cambia.'], action: 'Restablecer mi contraseña' },
  verify_email: { subject: 'Confirme su correo electrónico para {app}', body: ['Hola, {name}:', 'Añadió esta dirección a su cuenta de {app}. Confírmela con el enlace de abajo; funciona una vez, durante 24 horas. Después, sus correos y los enlaces para restablecer la contraseña llegarán aquí.', 'Si no fue usted, ignore este mensaje: la dirección no se añadirá.'], action: 'Confirmar mi dirección' },
  registration_approved: { subject: 'Bienvenido a {app}: su cuenta está aprobada', body: ['Hola, {name}:', 'Su registro ha sido aprobado. Ya puede iniciar sesión y empezar a compartir sus enlaces.'], action: 'Abrir {app}' },
  registration_rejected: { subject: 'Su registro en {app}', body: ['Hola, {name}:', 'Lo sentimos: su registro no fue aprobado. Si cree que es un error, responda a la persona que le invitó.'] },
  commission_digest: {
    subject: '{count} el {day}',
    body: ['Hola, {name}:', 'El {day}: {count}, {total} en total. El importe se suma a su saldo disponible.'],
    action: 'Ver mis comisiones',
    counted: { count: { one: '# comisión aprobada', other: '# comisiones aprobadas' } },
  },
  withdrawal_paid: { subject: 'Su retiro está pagado: {net}', body: ['Hola, {name}:', 'Se han enviado {net} a su cuenta {account}: su retiro de {amount}, menos una comisión de {fee}.', 'Referencia del pago: {reference}'], action: 'Ver el retiro' },
  withdrawal_failed: { subject: 'Su retiro de {amount} no se pudo pagar', body: ['Hola, {name}:', 'El pago de su retiro de {amount} falló: {reason}. El importe ha vuelto a su saldo disponible; revise su cuenta de cobro y retire de nuevo.'], action: 'Ver el retiro' },
  withdrawal_rejected: { subject: 'Su retiro de {amount} fue rechazado', body: ['Hola, {name}:', 'Su retiro de {amount} fue rechazado: {reason}. El importe ha vuelto a su saldo disponible.'], action: 'Ver el retiro' },
  work_queue_summary: {
    subject: '{app}: {total} revisión',
    body: ['Hola, {name}:', 'Pendiente para el equipo esta mañana: {registrations}, {enrollments}, {commissions}, {withdrawalsToApprove} y {withdrawalsToPay}.'],
    action: 'Abrir la consola',
    counted: {
      total: { one: '# elemento espera', other: '# elementos esperan' },
      registrations: { one: '# registro', other: '# registros' },
      enrollments: { one: '# solicitud a campañas', other: '# solicitudes a campañas' },
      commissions: { one: '# comisión por aprobar', other: '# comisiones por aprobar' },
      withdrawalsToApprove: { one: '# retiro por aprobar', other: '# retiros por aprobar' },
      withdrawalsToPay: { one: '# retiro por pagar', other: '# retiros por pagar' },
    },
  },
  webhook_disabled: { subject: '{app}: se desactivó un endpoint de webhook', body: ['El endpoint de webhook {url} se desactivó: {reason}. Ya no se le envían eventos.', 'Revise el receptor y vuelva a activar el endpoint en la consola.'], action: 'Abrir los webhooks' },
  staff_registration: { subject: '{app}: un nuevo registro espera aprobación', body: ['Hola, {name}:', 'Un nuevo promotor se registró y espera aprobación. Pendientes ahora: {count}.'], action: 'Abrir los registros', counted: { count: { one: '# registro', other: '# registros' } } },
  staff_enrollment: { subject: '{app}: una solicitud a una campaña espera aprobación', body: ['Hola, {name}:', 'Un promotor pidió unirse a una campaña. Pendientes ahora: {count}.'], action: 'Abrir las solicitudes', counted: { count: { one: '# solicitud', other: '# solicitudes' } } },
  staff_withdrawal: { subject: '{app}: retiro solicitado: {amount}', body: ['Hola, {name}:', 'Un promotor pidió retirar {amount}. Pendientes de aprobación ahora: {count}.'], action: 'Abrir los retiros', counted: { count: { one: '# retiro', other: '# retiros' } } },
  mail_failing: { subject: '{app}: el envío de correos falla', body: ['Hola, {name}:', 'No se pudo enviar un correo: {error}. Los correos se reintentan durante varias horas; revise el servidor de correo (SMTP_URL) y la página Correo de la consola.', 'Solo se le avisará de nuevo después de que el correo vuelva a funcionar.'], action: 'Abrir la página Correo' },
  ledger_breach: { subject: '{app}: la verificación del libro mayor encontró {count}', body: ['Hola, {name}:', 'Una verificación del libro mayor encontró {count}. Los saldos y los informes pueden ser erróneos hasta que se corrija: abra la verificación para ver cada uno.', 'Solo se le avisará de nuevo si cambian los problemas encontrados.'], action: 'Abrir la verificación', counted: { count: { one: '# problema', other: '# problemas' } } },
};
// Chinese: no space around the app's name (it is Chinese text itself); numbers and amounts keep the
// spaces the app's Chinese texts give them.
const zhHans: Texts = {
  test: { subject: '{app}测试邮件', body: ['您好：', '这是一封来自{app}的测试邮件。能读到它，说明邮件功能正常。'] },
  staff_invite: { subject: '邀请您加入{app}管理后台', body: ['{name}，您好：', '您已受邀加入{app}管理后台。请通过下方链接设置密码；链接 30 分钟内有效，仅可使用一次。'], action: '设置密码' },
  password_reset: { subject: '设置新的{app}密码', body: ['{name}，您好：', '已为您的{app}账号生成设置新密码的链接。在您通过下方链接设置新密码之前，当前密码仍然有效；链接 30 分钟内有效，仅可使用一次。'], action: '设置新密码' },
  forgot_password: { subject: '重置您的{app}密码', body: ['{name}，您好：', '有人申请重置您的{app}账号密码。如果是您本人，请通过下方链接设置新密码；链接 30 分钟内有效，仅可使用一次。', '如果不是您本人操作，请忽略本邮件，您的密码不会改变。'], action: '重置密码' },
  verify_email: { subject: '确认您的{app}邮箱地址', body: ['{name}，您好：', '您为{app}账号添加了此邮箱地址。请通过下方链接确认；链接 24 小时内有效，仅可使用一次。确认后，您的邮件和重置密码链接将发送到此邮箱。', '如果不是您本人操作，请忽略本邮件，此地址不会被添加。'], action: '确认邮箱地址' },
  registration_approved: { subject: '欢迎加入{app}：您的账号已通过审核', body: ['{name}，您好：', '您的注册已通过审核。现在可以登录并开始分享您的推广链接了。'], action: '打开{app}' },
  registration_rejected: { subject: '您的{app}注册结果', body: ['{name}，您好：', '很抱歉，您的注册未通过审核。如有疑问，请联系邀请您的人。'] },
  commission_digest: { subject: '{day} 有 {count}佣金已审核通过', body: ['{name}，您好：', '{day} 您有 {count}佣金审核通过，共计 {total}，已计入可提现余额。'], action: '查看我的佣金', counted: { count: { other: '# 笔' } } },
  withdrawal_paid: { subject: '您的提现已打款：{net}', body: ['{name}，您好：', '{net} 已打款至账户 {account}：提现 {amount}，扣除手续费 {fee}。', '付款参考号：{reference}'], action: '查看提现' },
  withdrawal_failed: { subject: '您的 {amount} 提现打款失败', body: ['{name}，您好：', '您的 {amount} 提现打款失败：{reason}。金额已退回可提现余额，请检查收款账户后重新提现。'], action: '查看提现' },
  withdrawal_rejected: { subject: '您的 {amount} 提现已被驳回', body: ['{name}，您好：', '您的 {amount} 提现已被驳回：{reason}。金额已退回可提现余额。'], action: '查看提现' },
  work_queue_summary: {
    subject: '{app}：{total}待处理',
    body: ['{name}，您好：', '今天早上待团队处理：注册 {registrations}，活动申请 {enrollments}，待审核佣金 {commissions}，待审批提现 {withdrawalsToApprove}，待打款提现 {withdrawalsToPay}。'],
    action: '打开管理后台',
    counted: { total: { other: '# 项' }, registrations: { other: '# 个' }, enrollments: { other: '# 个' }, commissions: { other: '# 笔' }, withdrawalsToApprove: { other: '# 笔' }, withdrawalsToPay: { other: '# 笔' } },
  },
  webhook_disabled: { subject: '{app}：一个 Webhook 端点已停用', body: ['Webhook 端点 {url} 已停用：{reason}。不再向它发送事件。', '请检查接收方，然后在管理后台重新启用该端点。'], action: '打开 Webhook' },
  staff_registration: { subject: '{app}：有新的注册待审核', body: ['{name}，您好：', '有新的推广员注册，等待审核。目前待审核：{count}。'], action: '打开注册审核', counted: { count: { other: '# 个' } } },
  staff_enrollment: { subject: '{app}：有新的活动申请待审核', body: ['{name}，您好：', '有推广员申请加入活动，等待审核。目前待审核：{count}。'], action: '打开活动申请', counted: { count: { other: '# 个' } } },
  staff_withdrawal: { subject: '{app}：新的提现申请：{amount}', body: ['{name}，您好：', '有推广员申请提现 {amount}。目前待审批：{count}。'], action: '打开提现', counted: { count: { other: '# 笔' } } },
  mail_failing: { subject: '{app}：邮件发送失败', body: ['{name}，您好：', '有邮件未能发送：{error}。系统会在数小时内重试；请检查邮件服务器（SMTP_URL）和管理后台的“邮件”页面。', '邮件恢复正常之前，不会再次提醒您。'], action: '打开邮件页面' },
  ledger_breach: { subject: '{app}：账本检查发现 {count}问题', body: ['{name}，您好：', '账本检查发现 {count}问题。修复之前，余额和报表可能有误：请打开账本检查查看每一项。', '只有发现的问题发生变化时，才会再次提醒您。'], action: '打开账本检查', counted: { count: { other: '# 个' } } },
};
const zhHant: Texts = {
  test: { subject: '{app}測試郵件', body: ['您好：', '這是一封來自{app}的測試郵件。能讀到它，表示郵件功能正常。'] },
  staff_invite: { subject: '邀請您加入{app}管理後台', body: ['{name}，您好：', '您已受邀加入{app}管理後台。請透過下方連結設定密碼；連結 30 分鐘內有效，僅可使用一次。'], action: '設定密碼' },
  password_reset: { subject: '設定新的{app}密碼', body: ['{name}，您好：', '已為您的{app}帳號產生設定新密碼的連結。在您透過下方連結設定新密碼之前，目前的密碼仍然有效；連結 30 分鐘內有效，僅可使用一次。'], action: '設定新密碼' },
  forgot_password: { subject: '重設您的{app}密碼', body: ['{name}，您好：', '有人申請重設您的{app}帳號密碼。如果是您本人，請透過下方連結設定新密碼；連結 30 分鐘內有效，僅可使用一次。', '如果不是您本人操作，請忽略本郵件，您的密碼不會改變。'], action: '重設密碼' },
  verify_email: { subject: '確認您的{app}電子郵件地址', body: ['{name}，您好：', '您為{app}帳號新增了此電子郵件地址。請透過下方連結確認；連結 24 小時內有效，僅可使用一次。確認後，您的郵件和重設密碼連結將寄到此地址。', '如果不是您本人操作，請忽略本郵件，此地址不會被新增。'], action: '確認電子郵件地址' },
  registration_approved: { subject: '歡迎加入{app}：您的帳號已通過審核', body: ['{name}，您好：', '您的註冊已通過審核。現在可以登入並開始分享您的推廣連結了。'], action: '開啟{app}' },
  registration_rejected: { subject: '您的{app}註冊結果', body: ['{name}，您好：', '很抱歉，您的註冊未通過審核。如有疑問，請聯絡邀請您的人。'] },
  commission_digest: { subject: '{day} 有 {count}佣金已審核通過', body: ['{name}，您好：', '{day} 您有 {count}佣金審核通過，共計 {total}，已計入可提領餘額。'], action: '查看我的佣金', counted: { count: { other: '# 筆' } } },
  withdrawal_paid: { subject: '您的提領已撥款：{net}', body: ['{name}，您好：', '{net} 已撥款至帳戶 {account}：提領 {amount}，扣除手續費 {fee}。', '付款參考編號：{reference}'], action: '查看提領' },
  withdrawal_failed: { subject: '您的 {amount} 提領撥款失敗', body: ['{name}，您好：', '您的 {amount} 提領撥款失敗：{reason}。金額已退回可提領餘額，請檢查收款帳戶後重新提領。'], action: '查看提領' },
  withdrawal_rejected: { subject: '您的 {amount} 提領已被駁回', body: ['{name}，您好：', '您的 {amount} 提領已被駁回：{reason}。金額已退回可提領餘額。'], action: '查看提領' },
  work_queue_summary: {
    subject: '{app}：{total}待處理',
    body: ['{name}，您好：', '今天早上待團隊處理：註冊 {registrations}，活動申請 {enrollments}，待審核佣金 {commissions}，待核准提領 {withdrawalsToApprove}，待撥款提領 {withdrawalsToPay}。'],
    action: '開啟管理後台',
    counted: { total: { other: '# 項' }, registrations: { other: '# 個' }, enrollments: { other: '# 個' }, commissions: { other: '# 筆' }, withdrawalsToApprove: { other: '# 筆' }, withdrawalsToPay: { other: '# 筆' } },
  },
  webhook_disabled: { subject: '{app}：一個 Webhook 端點已停用', body: ['Webhook 端點 {url} 已停用：{reason}。不再向它傳送事件。', '請檢查接收方，然後在管理後台重新啟用該端點。'], action: '開啟 Webhook' },
  staff_registration: { subject: '{app}：有新的註冊待審核', body: ['{name}，您好：', '有新的推廣員註冊，等待審核。目前待審核：{count}。'], action: '開啟註冊審核', counted: { count: { other: '# 個' } } },
  staff_enrollment: { subject: '{app}：有新的活動申請待審核', body: ['{name}，您好：', '有推廣員申請加入活動，等待審核。目前待審核：{count}。'], action: '開啟活動申請', counted: { count: { other: '# 個' } } },
  staff_withdrawal: { subject: '{app}：新的提領申請：{amount}', body: ['{name}，您好：', '有推廣員申請提領 {amount}。目前待核准：{count}。'], action: '開啟提領', counted: { count: { other: '# 筆' } } },
  mail_failing: { subject: '{app}：郵件傳送失敗', body: ['{name}，您好：', '有郵件未能傳送：{error}。系統會在數小時內重試；請檢查郵件伺服器（SMTP_URL）和管理後台的「郵件」頁面。', '郵件恢復正常之前，不會再次提醒您。'], action: '開啟郵件頁面' },
  ledger_breach: { subject: '{app}：帳本檢查發現 {count}問題', body: ['{name}，您好：', '帳本檢查發現 {count}問題。修正之前，餘額和報表可能有誤：請開啟帳本檢查查看每一項。', '只有發現的問題改變時，才會再次提醒您。'], action: '開啟帳本檢查', counted: { count: { other: '# 個' } } },
};

const TEXTS: Record<Locale, Texts> = { en, fr, es, 'zh-Hans': zhHans, 'zh-Hant': zhHant };
const CHROME: Record<Locale, Chrome> = {
  en: { optOut: 'You can turn these e-mails off in {app}: Me → E-mail notifications.', automatic: 'This message was sent automatically by {app}.', open: 'Open:', colon: ':' },
  fr: { optOut: 'Vous pouvez désactiver ces e-mails dans {app} : Moi → Notifications par e-mail.', automatic: 'Ce message a été envoyé automatiquement par {app}.', open: 'Ouvrir :', colon: ' :' },
  es: { optOut: 'Puede desactivar estos correos en {app}: Cuenta → Notificaciones por correo.', automatic: 'Este mensaje lo envió automáticamente {app}.', open: 'Abrir:', colon: ':' },
  'zh-Hans': { optOut: '您可以在{app}的“我的 → 邮件通知”中关闭此类邮件。', automatic: '本邮件由{app}自动发送。', open: '打开：', colon: '：' },
  'zh-Hant': { optOut: '您可以在{app}的「我的 → 電子郵件通知」中關閉此類郵件。', automatic: '本郵件由{app}自動傳送。', open: '開啟：', colon: '：' },
};

/** Why an endpoint was disabled, in each language (the webhook_disabled mail's `reason`). */
export const DISABLED_REASONS: Record<'gone' | 'failing', Record<Locale, string>> = {
  gone: { en: 'the receiver answered 410 Gone', fr: 'le récepteur a répondu 410 Gone', es: 'el receptor respondió 410 Gone', 'zh-Hans': '接收方返回了 410 Gone', 'zh-Hant': '接收方回傳了 410 Gone' },
  failing: { en: 'every delivery has failed for 5 days', fr: 'toutes les livraisons échouent depuis 5 jours', es: 'todas las entregas fallan desde hace 5 días', 'zh-Hans': '连续 5 天投递全部失败', 'zh-Hant': '連續 5 天投遞全部失敗' },
};

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function formatValue(value: MailValue, locale: Locale): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return new Intl.NumberFormat(locale).format(value);
  if ('localized' in value) return value.localized[locale];
  if ('day' in value) {
    const [y, m, d] = value.day.split('-').map(Number);
    return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(Date.UTC(y!, m! - 1, d!));
  }
  const digits = minorUnitDigits(value.currency);
  return new Intl.NumberFormat(locale, { style: 'currency', currency: value.currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value.minor / 10 ** digits);
}

/** `n` as the phrase of its plural category in `locale` (`#` is the number, formatted). */
function counted(forms: Forms, n: number, locale: Locale): string {
  const form = forms[new Intl.PluralRules(locale).select(n)] ?? forms.other;
  return form.replace('#', new Intl.NumberFormat(locale).format(n));
}

function fill(text: string, values: Record<string, string>, escape: (s: string) => string): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? escape(values[key]!) : whole));
}

/**
 * The mail `template` for a reader of `locale`. `url` (when given) is the button's address; the
 * mails of a category a person can turn off say where.
 */
export function renderMail(template: MailTemplate, locale: Locale, params: MailParams, options: { appName: string | null; url?: string; optOut: boolean }): RenderedMail {
  const t = TEXTS[locale][template];
  const chrome = CHROME[locale];
  const values: Record<string, string> = { app: options.appName ?? DEFAULT_APP_NAME[locale] };
  for (const [k, v] of Object.entries(params)) {
    const forms = t.counted?.[k];
    values[k] = forms && typeof v === 'number' ? counted(forms, v, locale) : formatValue(v, locale);
  }
  const plain = (s: string) => fill(s, values, (x) => x);
  const html = (s: string) => fill(escapeHtml(s), values, escapeHtml);
  const footer = [...(options.optOut ? [chrome.optOut] : []), chrome.automatic];

  const textParts = t.body.map(plain);
  if (t.action && options.url) textParts.push(`${plain(t.action)}${chrome.colon}\n${options.url}`);
  const text = `${textParts.join('\n\n')}\n\n--\n${footer.map(plain).join('\n')}\n`;

  const button = t.action && options.url
    ? `<p style="margin:24px 0"><a href="${escapeHtml(options.url)}" style="display:inline-block;padding:12px 20px;background:#1677ff;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">${html(t.action)}</a></p>`
      + `<p style="font-size:13px;color:#666666">${escapeHtml(chrome.open)} <a href="${escapeHtml(options.url)}" style="color:#1677ff;word-break:break-all">${escapeHtml(options.url)}</a></p>`
    : '';
  const htmlBody = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${html(t.subject)}</title></head>`
    + `<body style="margin:0;padding:0;background:#f5f5f5"><div style="max-width:560px;margin:0 auto;padding:24px;font-family:-apple-system,'Segoe UI',Roboto,'PingFang SC','Noto Sans CJK SC',sans-serif;font-size:15px;line-height:1.6;color:#1f1f1f;background:#ffffff">`
    + `<p style="margin:0 0 16px;font-size:17px;font-weight:600">${escapeHtml(values.app!)}</p>`
    + t.body.map((p) => `<p style="margin:0 0 12px">${html(p)}</p>`).join('')
    + button
    + `<hr style="border:none;border-top:1px solid #eeeeee;margin:24px 0 12px">`
    + footer.map((f) => `<p style="margin:0;font-size:12px;color:#888888">${html(f)}</p>`).join('')
    + '</div></body></html>';
  return { subject: plain(t.subject), text, html: htmlBody };
}
