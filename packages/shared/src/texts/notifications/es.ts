/** Spanish: the inbox's messages — what a notification's type and parameters become (issue 30; the web mounts them under `notifications`). */
import type { NotificationTexts } from '../types';

export default {
  aCampaign: 'una campaña',
  reason: 'Motivo: {{reason}}',
  reference: 'Referencia del pago: {{reference}}',
  error: 'Error: {{error}}',
  enrollment: {
    approved: {
      title: 'Ya puedes promocionar «{{campaign}}»',
      body: 'Se aprobó tu solicitud de participación. Crea un enlace y empieza a compartir.',
    },
    rejected: {
      title: 'Solicitud rechazada: «{{campaign}}»',
      body: 'No se aprobó tu solicitud para participar en esta campaña.',
    },
  },
  commission: {
    created: {
      title: 'Nueva comisión: {{amount}}',
      titleTeam: 'Nuevo bono de equipo: {{amount}}',
      body: 'De «{{campaign}}». Estará disponible al terminar el plazo de devolución.',
      bodyTeam: 'Por la venta de un miembro de tu equipo en «{{campaign}}». Estará disponible al terminar el plazo de devolución.',
    },
    approved: {
      title: '{{amount}} ya disponibles',
      titleTeam: 'Bono de equipo de {{amount}} ya disponible',
      body: 'Se aprobó tu comisión de «{{campaign}}». Ya puedes retirarla.',
      bodyTeam: 'Se aprobó tu bono de equipo de «{{campaign}}». Ya puedes retirarlo.',
    },
    rejected: {
      title: 'Comisión rechazada: {{amount}}',
      titleTeam: 'Bono de equipo rechazado: {{amount}}',
      body: 'No se aprobó tu comisión de «{{campaign}}».',
      bodyTeam: 'No se aprobó tu bono de equipo de «{{campaign}}».',
    },
    reversed: {
      title: 'Comisión anulada: {{amount}}',
      titleTeam: 'Bono de equipo anulado: {{amount}}',
      body: 'Se reembolsó el pedido de «{{campaign}}», así que se anuló la comisión.',
      bodyTeam: 'Se reembolsó el pedido de un miembro de tu equipo en «{{campaign}}», así que se anuló el bono.',
      bodyClawback: 'El programa anuló tu comisión de «{{campaign}}».',
      bodyClawbackTeam: 'El programa anuló tu bono de equipo de «{{campaign}}».',
    },
  },
  withdrawal: {
    requested: {
      title: 'Retiro solicitado: {{amount}}',
      body: 'Recibirás {{net}} cuando se apruebe y se pague.',
    },
    approved: {
      title: 'Retiro aprobado: {{amount}}',
      body: '{{net}} van camino de tu cuenta.',
    },
    paid: {
      title: 'Retiro pagado: {{net}}',
      body: 'El dinero se envió a tu cuenta de cobro.',
    },
    failed: {
      title: 'Retiro fallido: {{amount}}',
      body: 'El pago no se completó. El importe volvió a tu saldo disponible.',
    },
    rejected: {
      title: 'Retiro rechazado: {{amount}}',
      body: 'El importe volvió a tu saldo disponible.',
    },
    cancelled: {
      title: 'Retiro cancelado: {{amount}}',
      body: 'El importe volvió a tu saldo disponible.',
    },
  },
  adjustment: {
    creditTitle: 'Abono en tu saldo: {{amount}}',
    debitTitle: 'Cargo en tu saldo: {{amount}}',
    body: 'El programa ajustó tu saldo disponible en {{amount}}. Motivo: {{reason}}',
    bodyNoReason: 'El programa ajustó tu saldo disponible en {{amount}}.',
  },
  bounty: {
    earned: {
      title: 'Bonificación ganada: {{amount}}',
      body: 'Conseguiste «{{bounty}}» en «{{campaign}}». Estará disponible tras el periodo de devolución.',
    },
    submission_rejected: {
      title: 'Prueba no aceptada: «{{bounty}}»',
      body: 'Tu prueba para esta bonificación de «{{campaign}}» no fue aprobada. Puedes enviar otra.',
    },
  },
  unknown: {
    title: 'Nueva notificación',
    body: 'Actualiza la aplicación para ver esta notificación completa.',
  },
  staff: {
    registration: {
      title_one: '{{count}} registro espera aprobación',
      title_many: '{{count}} de registros esperan aprobación',
      title_other: '{{count}} registros esperan aprobación',
      body: 'Un nuevo promotor se registró. Revíselos en Registros.',
    },
    enrollment: {
      title_one: '{{count}} solicitud de unión espera aprobación',
      title_many: '{{count}} de solicitudes de unión esperan aprobación',
      title_other: '{{count}} solicitudes de unión esperan aprobación',
      body: 'Un promotor pidió unirse a una campaña. Revísela en Solicitudes de unión.',
    },
    withdrawal: {
      title: 'Retiro solicitado: {{amount}}',
      body_one: '{{count}} retiro espera aprobación.',
      body_many: '{{count}} de retiros esperan aprobación.',
      body_other: '{{count}} retiros esperan aprobación.',
    },
    webhook_disabled: {
      title: 'Endpoint de webhook desactivado',
      body: '{{url}} se desactivó: {{reason}}. Ya no se le envían eventos.',
      gone: 'el receptor respondió 410 Gone',
      failing: 'todas las entregas fallan desde hace 5 días',
    },
    mail_failing: {
      title: 'El envío de correos falla',
      body: 'No se pudo enviar un correo. Solo se le avisará de nuevo después de que el correo vuelva a funcionar.',
    },
    ledger_breach: {
      title_one: 'La verificación del libro mayor encontró {{count}} problema',
      title_many: 'La verificación del libro mayor encontró {{count}} de problemas',
      title_other: 'La verificación del libro mayor encontró {{count}} problemas',
      body: 'Los saldos y los informes pueden ser erróneos hasta que se corrija. Abra la verificación para ver cada uno.',
    },
  },
} satisfies NotificationTexts;
