/**
 * Spanish: what only the server writes — mails, its small HTML pages, the values of its CSV exports, the webhook test event
 * (issue 30). i18next's format, like every entry of the catalogue: `{{name}}` placeholders, counted
 * phrases as `<name>_<plural category>` keys chosen by Intl.PluralRules.
 */
import type { ServerTexts } from '../types';

export default {
  mail: {
    test: {
      subject: 'Mensaje de prueba de {{app}}',
      body: ['Hola:', 'Este es un mensaje de prueba de {{app}}. Si puede leerlo, el correo funciona.'],
    },
    staff_invite: {
      subject: 'Le han invitado a la consola de {{app}}',
      body: [
        'Hola, {{name}}:',
        'Le han invitado a la consola de {{app}}. Defina su contraseña con el enlace de abajo; funciona una vez, durante 30 minutos.',
      ],
      action: 'Definir mi contraseña',
    },
    password_reset: {
      subject: 'Defina una nueva contraseña de {{app}}',
      body: [
        'Hola, {{name}}:',
        'Se ha creado para usted un enlace para definir una nueva contraseña de su cuenta de {{app}}. Su contraseña actual sigue valiendo hasta que defina una nueva con el enlace de abajo; funciona una vez, durante 30 minutos.',
      ],
      action: 'Definir una nueva contraseña',
    },
    forgot_password: {
      subject: 'Restablezca su contraseña de {{app}}',
      body: [
        'Hola, {{name}}:',
        'Alguien pidió restablecer la contraseña de su cuenta de {{app}}. Si fue usted, elija una nueva con el enlace de abajo; funciona una vez, durante 30 minutos.',
        'Si no fue usted, ignore este mensaje: su contraseña no cambia.',
      ],
      action: 'Restablecer mi contraseña',
    },
    verify_email: {
      subject: 'Confirme su correo electrónico para {{app}}',
      body: [
        'Hola, {{name}}:',
        'Añadió esta dirección a su cuenta de {{app}}. Confírmela con el enlace de abajo; funciona una vez, durante 24 horas. Después, sus correos y los enlaces para restablecer la contraseña llegarán aquí.',
        'Si no fue usted, ignore este mensaje: la dirección no se añadirá.',
      ],
      action: 'Confirmar mi dirección',
    },
    registration_approved: {
      subject: 'Bienvenido a {{app}}: su cuenta está aprobada',
      body: [
        'Hola, {{name}}:',
        'Su registro ha sido aprobado. Ya puede iniciar sesión y empezar a compartir sus enlaces.',
      ],
      action: 'Abrir {{app}}',
    },
    registration_rejected: {
      subject: 'Su registro en {{app}}',
      body: [
        'Hola, {{name}}:',
        'Lo sentimos: su registro no fue aprobado. Si cree que es un error, responda a la persona que le invitó.',
      ],
    },
    commission_digest: {
      subject: '{{count}} el {{day}}',
      body: [
        'Hola, {{name}}:',
        'El {{day}}: {{count}}, {{total}} en total. El importe se suma a su saldo disponible.',
      ],
      action: 'Ver mis comisiones',
      counted: {
        count_one: '{{count}} comisión aprobada',
        count_many: '{{count}} de comisiones aprobadas',
        count_other: '{{count}} comisiones aprobadas',
      },
    },
    withdrawal_paid: {
      subject: 'Su retiro está pagado: {{net}}',
      body: [
        'Hola, {{name}}:',
        'Se han enviado {{net}} a su cuenta {{account}}: su retiro de {{amount}}, menos una comisión de {{fee}}.',
        'Referencia del pago: {{reference}}',
      ],
      action: 'Ver el retiro',
    },
    withdrawal_failed: {
      subject: 'Su retiro de {{amount}} no se pudo pagar',
      body: [
        'Hola, {{name}}:',
        'El pago de su retiro de {{amount}} falló: {{reason}}. El importe ha vuelto a su saldo disponible; revise su cuenta de cobro y retire de nuevo.',
      ],
      action: 'Ver el retiro',
    },
    withdrawal_rejected: {
      subject: 'Su retiro de {{amount}} fue rechazado',
      body: [
        'Hola, {{name}}:',
        'Su retiro de {{amount}} fue rechazado: {{reason}}. El importe ha vuelto a su saldo disponible.',
      ],
      action: 'Ver el retiro',
    },
    work_queue_summary: {
      subject: '{{app}}: {{total}} revisión',
      body: [
        'Hola, {{name}}:',
        'Pendiente para el equipo esta mañana: {{registrations}}, {{enrollments}}, {{commissions}}, {{withdrawalsToApprove}} y {{withdrawalsToPay}}.',
      ],
      action: 'Abrir la consola',
      counted: {
        total_one: '{{count}} elemento espera',
        total_many: '{{count}} de elementos esperan',
        total_other: '{{count}} elementos esperan',
        registrations_one: '{{count}} registro',
        registrations_many: '{{count}} de registros',
        registrations_other: '{{count}} registros',
        enrollments_one: '{{count}} solicitud a campañas',
        enrollments_many: '{{count}} de solicitudes a campañas',
        enrollments_other: '{{count}} solicitudes a campañas',
        commissions_one: '{{count}} comisión por aprobar',
        commissions_many: '{{count}} de comisiones por aprobar',
        commissions_other: '{{count}} comisiones por aprobar',
        withdrawalsToApprove_one: '{{count}} retiro por aprobar',
        withdrawalsToApprove_many: '{{count}} de retiros por aprobar',
        withdrawalsToApprove_other: '{{count}} retiros por aprobar',
        withdrawalsToPay_one: '{{count}} retiro por pagar',
        withdrawalsToPay_many: '{{count}} de retiros por pagar',
        withdrawalsToPay_other: '{{count}} retiros por pagar',
      },
    },
    webhook_disabled: {
      subject: '{{app}}: se desactivó un endpoint de webhook',
      body: [
        'El endpoint de webhook {{url}} se desactivó: {{reason}}. Ya no se le envían eventos.',
        'Revise el receptor y vuelva a activar el endpoint en la consola.',
      ],
      action: 'Abrir los webhooks',
    },
    staff_registration: {
      subject: '{{app}}: un nuevo registro espera aprobación',
      body: [
        'Hola, {{name}}:',
        'Un nuevo promotor se registró y espera aprobación. Pendientes ahora: {{count}}.',
      ],
      action: 'Abrir los registros',
      counted: {
        count_one: '{{count}} registro',
        count_many: '{{count}} de registros',
        count_other: '{{count}} registros',
      },
    },
    staff_enrollment: {
      subject: '{{app}}: una solicitud a una campaña espera aprobación',
      body: ['Hola, {{name}}:', 'Un promotor pidió unirse a una campaña. Pendientes ahora: {{count}}.'],
      action: 'Abrir las solicitudes',
      counted: {
        count_one: '{{count}} solicitud',
        count_many: '{{count}} de solicitudes',
        count_other: '{{count}} solicitudes',
      },
    },
    staff_withdrawal: {
      subject: '{{app}}: retiro solicitado: {{amount}}',
      body: [
        'Hola, {{name}}:',
        'Un promotor pidió retirar {{amount}}. Pendientes de aprobación ahora: {{count}}.',
      ],
      action: 'Abrir los retiros',
      counted: {
        count_one: '{{count}} retiro',
        count_many: '{{count}} de retiros',
        count_other: '{{count}} retiros',
      },
    },
    mail_failing: {
      subject: '{{app}}: el envío de correos falla',
      body: [
        'Hola, {{name}}:',
        'No se pudo enviar un correo: {{error}}. Los correos se reintentan durante varias horas; revise el servidor de correo (SMTP_URL) y la página Correo de la consola.',
        'Solo se le avisará de nuevo después de que el correo vuelva a funcionar.',
      ],
      action: 'Abrir la página Correo',
    },
    ledger_breach: {
      subject: '{{app}}: la verificación del libro mayor encontró {{count}}',
      body: [
        'Hola, {{name}}:',
        'Una verificación del libro mayor encontró {{count}}. Los saldos y los informes pueden ser erróneos hasta que se corrija: abra la verificación para ver cada uno.',
        'Solo se le avisará de nuevo si cambian los problemas encontrados.',
      ],
      action: 'Abrir la verificación',
      counted: {
        count_one: '{{count}} problema',
        count_many: '{{count}} de problemas',
        count_other: '{{count}} problemas',
      },
    },
  },
  mailChrome: {
    optOut: 'Puede desactivar estos correos en {{app}}: Cuenta → Notificaciones por correo.',
    automatic: 'Este mensaje lo envió automáticamente {{app}}.',
    open: 'Abrir:',
    colon: ':',
  },
  pages: {
    linkNotFoundTitle: 'Enlace no encontrado',
    linkNotFoundBody: 'Este enlace no existe o fue eliminado. Consúltalo con la persona que lo compartió.',
    notFoundTitle: 'Página no encontrada',
    notFoundBody: 'La página que buscas no existe o fue eliminada.',
    errorTitle: 'Algo salió mal',
    errorBody: 'El servidor tuvo un problema. Inténtalo más tarde.',
    backHome: 'Ir a la página de inicio',
  },
  commissionCsv: {
    status: {
      pending: 'Pendiente',
      approved: 'Aprobada',
      rejected: 'Rechazada',
      reversed: 'Anulada',
    },
    level: {
      direct: 'Directa',
      team: 'Bono de equipo',
    },
  },
  auditCsv: {
    system: 'Sistema',
  },
  webhookTest: {
    message: 'Un evento de prueba enviado por {{app}}.',
  },
} satisfies ServerTexts;
