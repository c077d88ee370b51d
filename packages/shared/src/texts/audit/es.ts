/** Spanish: the audit log's action and subject names (issue 30; the console mounts them under `auditAdmin`, the audit export writes `action_name`). */
import type { AuditTexts } from '../types';

export default {
  actions: {
    user: {
      register: 'Registro',
      profile_update: 'Perfil modificado',
      password_change: 'Contraseña cambiada',
      approve: 'Registro aprobado',
      reject: 'Registro rechazado',
      suspend: 'Cuenta suspendida',
      reactivate: 'Cuenta reactivada',
      password_reset_link: 'Enlace de restablecimiento creado',
      password_reset: 'Contraseña establecida con un enlace',
      email_requested: 'Enlace de verificación enviado a un correo',
      email_verified: 'Correo electrónico verificado',
    },
    session: {
      sign_in: 'Inicio de sesión',
      sign_out: 'Cierre de sesión',
      revoke: 'Dispositivo desconectado',
      revoke_all: 'Todos los dispositivos desconectados',
    },
    staff: {
      create: 'Miembro del equipo añadido',
      invite: 'Enlace de invitación creado',
      update: 'Miembro del equipo modificado',
    },
    settings: {
      update: 'Ajustes modificados',
    },
    crypto: {
      rotate_key: 'Clave de cifrado renovada',
    },
    api_key: {
      create: 'Clave de API creada',
      revoke: 'Clave de API revocada',
    },
    webhook: {
      create: 'Endpoint de webhook añadido',
      update: 'Endpoint de webhook modificado',
      rotate_secret: 'Secreto de webhook renovado',
      delete: 'Endpoint de webhook eliminado',
      test: 'Prueba de webhook enviada',
      retry: 'Entrega de webhook reintentada',
    },
    integration: {
      stripe_secret: 'Secreto de firma de Stripe configurado',
    },
    campaign: {
      create: 'Campaña creada',
      update: 'Campaña modificada',
      activate: 'Campaña iniciada',
      pause: 'Campaña en pausa',
      end: 'Campaña finalizada',
      rewards: 'Reglas de recompensa cambiadas',
      image_add: 'Imagen de campaña añadida',
      image_remove: 'Imagen de campaña eliminada',
    },
    announcement: {
      create: 'Anuncio creado',
      update: 'Anuncio modificado',
      publish: 'Anuncio publicado',
      archive: 'Anuncio archivado',
      delete: 'Anuncio eliminado',
    },
    enrollment: {
      approve: 'Solicitud de participación aprobada',
      reject: 'Solicitud de participación rechazada',
      coupon: 'Código de cupón asignado',
    },
    commission: {
      approve: 'Comisión aprobada',
      reject: 'Comisión rechazada',
      reverse: 'Comisión anulada',
    },
    conversion: {
      assign: 'Conversión asignada a un promotor',
    },
    binding: {
      end: 'Vinculación del cliente finalizada',
      move: 'Vinculación del cliente trasladada a otro promotor',
    },
    promoter: {
      adjust: 'Ajuste manual',
      export: 'Promotores exportados',
      group: 'Cambiado de grupo',
    },
    payout_account: {
      add: 'Cuenta de cobro añadida',
      delete: 'Cuenta de cobro eliminada',
    },
    withdrawal: {
      requested: 'Retiro solicitado',
      approved: 'Retiro aprobado',
      paid: 'Retiro pagado',
      failed: 'Pago del retiro fallido',
      rejected: 'Retiro rechazado',
      cancelled: 'Retiro cancelado',
      export: 'Retiros exportados para el banco',
    },
    audit: {
      export: 'Registro de auditoría exportado',
    },
    group: {
      create: 'Grupo creado',
      update: 'Grupo modificado',
      delete: 'Grupo eliminado',
      invite_code: 'Nuevo enlace de invitación del grupo',
    },
    application_form: {
      update: 'Preguntas de solicitud modificadas',
    },
    bounty: {
      create: 'Bonificación creada',
      update: 'Bonificación modificada',
    },
    bounty_submission: {
      approve: 'Prueba de bonificación aprobada',
      reject: 'Prueba de bonificación rechazada',
    },
  },
  entities: {
    user: 'Usuario',
    session: 'Sesión',
    settings: 'Ajustes',
    rsa_key: 'Clave de cifrado',
    api_key: 'Clave de API',
    webhook: 'Endpoint de webhook',
    campaign: 'Campaña',
    announcement: 'Anuncio',
    enrollment: 'Solicitud de participación',
    commission: 'Comisión',
    conversion: 'Conversión',
    binding: 'Vinculación del cliente',
    payout_account: 'Cuenta de cobro',
    withdrawal: 'Retiro',
    audit: 'Registro de auditoría',
    promoter: 'Promotores',
    group: 'Grupo de promotores',
    bounty: 'Bonificación',
    bounty_submission: 'Prueba de bonificación',
  },
} satisfies AuditTexts;
