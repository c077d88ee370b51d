/** French: the audit log's action and subject names (issue 30; the console mounts them under `auditAdmin`, the audit export writes `action_name`). */
import type { AuditTexts } from '../types';

export default {
  actions: {
    user: {
      register: 'Inscription',
      profile_update: 'Profil modifié',
      password_change: 'Mot de passe modifié',
      approve: 'Inscription approuvée',
      reject: 'Inscription refusée',
      suspend: 'Compte suspendu',
      reactivate: 'Compte réactivé',
      password_reset_link: 'Lien de réinitialisation créé',
      password_reset: 'Mot de passe défini par un lien',
      email_requested: 'Lien de vérification envoyé à une adresse e-mail',
      email_verified: 'Adresse e-mail vérifiée',
    },
    session: {
      sign_in: 'Connexion',
      sign_out: 'Déconnexion',
      revoke: 'Appareil déconnecté',
      revoke_all: 'Tous les appareils déconnectés',
    },
    staff: {
      create: 'Membre de l’équipe ajouté',
      invite: 'Lien d’invitation créé',
      update: 'Membre de l’équipe modifié',
    },
    settings: {
      update: 'Paramètres modifiés',
    },
    crypto: {
      rotate_key: 'Clé de chiffrement renouvelée',
    },
    api_key: {
      create: 'Clé d’API créée',
      revoke: 'Clé d’API révoquée',
    },
    webhook: {
      create: 'Point de terminaison webhook ajouté',
      update: 'Point de terminaison webhook modifié',
      rotate_secret: 'Secret de webhook renouvelé',
      delete: 'Point de terminaison webhook supprimé',
      test: 'Test de webhook envoyé',
      retry: 'Livraison de webhook relancée',
    },
    integration: {
      stripe_secret: 'Secret de signature Stripe défini',
    },
    campaign: {
      create: 'Campagne créée',
      update: 'Campagne modifiée',
      activate: 'Campagne lancée',
      pause: 'Campagne mise en pause',
      end: 'Campagne terminée',
      rewards: 'Règles de récompense modifiées',
      image_add: 'Image de campagne ajoutée',
      image_remove: 'Image de campagne retirée',
    },
    announcement: {
      create: 'Annonce créée',
      update: 'Annonce modifiée',
      publish: 'Annonce publiée',
      archive: 'Annonce archivée',
      delete: 'Annonce supprimée',
    },
    enrollment: {
      approve: 'Demande de participation acceptée',
      reject: 'Demande de participation refusée',
      coupon: 'Code promo défini',
    },
    commission: {
      approve: 'Commission approuvée',
      reject: 'Commission refusée',
      reverse: 'Commission reprise',
    },
    conversion: {
      assign: 'Conversion attribuée à un promoteur',
    },
    binding: {
      end: 'Rattachement du client terminé',
      move: 'Rattachement du client transféré à un autre promoteur',
    },
    promoter: {
      adjust: 'Ajustement manuel',
      export: 'Promoteurs exportés',
      group: 'Changé de groupe',
    },
    payout_account: {
      add: 'Compte de versement ajouté',
      delete: 'Compte de versement supprimé',
    },
    withdrawal: {
      requested: 'Retrait demandé',
      approved: 'Retrait approuvé',
      paid: 'Retrait payé',
      failed: 'Paiement du retrait échoué',
      rejected: 'Retrait refusé',
      cancelled: 'Retrait annulé',
      export: 'Retraits exportés pour la banque',
    },
    audit: {
      export: 'Journal d’audit exporté',
    },
    group: {
      create: 'Groupe créé',
      update: 'Groupe modifié',
      delete: 'Groupe supprimé',
      invite_code: 'Nouveau lien d’invitation du groupe',
    },
    application_form: {
      update: 'Questions de candidature modifiées',
    },
    bounty: {
      create: 'Prime créée',
      update: 'Prime modifiée',
    },
    bounty_submission: {
      approve: 'Preuve de prime approuvée',
      reject: 'Preuve de prime refusée',
    },
  },
  entities: {
    user: 'Utilisateur',
    session: 'Session',
    settings: 'Paramètres',
    rsa_key: 'Clé de chiffrement',
    api_key: 'Clé d’API',
    webhook: 'Point de terminaison webhook',
    campaign: 'Campagne',
    announcement: 'Annonce',
    enrollment: 'Demande de participation',
    commission: 'Commission',
    conversion: 'Conversion',
    binding: 'Rattachement du client',
    payout_account: 'Compte de versement',
    withdrawal: 'Retrait',
    audit: 'Journal d’audit',
    promoter: 'Promoteurs',
    group: 'Groupe de promoteurs',
    bounty: 'Prime',
    bounty_submission: 'Preuve de prime',
  },
} satisfies AuditTexts;
