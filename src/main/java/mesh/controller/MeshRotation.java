package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import mesh.client.AgentApi;
import mesh.model.Conflict;
import mesh.model.InvalidInput;
import mesh.model.Node;
import mesh.plan.CertRotation;
import mesh.store.MeshStore;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.ServedCertificate;
import mesh.trust.ServerTrust;
import mesh.wire.AgentCertificate;
import mesh.wire.AgentKey;
import mesh.wire.CertificateServed;
import mesh.wire.RotateReport;
import org.jboss.logging.Logger;

/**
 * MeshRotation carries out {@code mesh ca rotate-certs} (docs/trust.md, "Rotating certificates"):
 * asks each node's agent for its certificate's expiry, lets {@link CertRotation} decide who is
 * reissued, then, agent by agent over mutual TLS, asks for a new public key, issues a certificate
 * for it with the node's name and address as the store has them and sends it back (the agent
 * checks, writes and serves it); last the controller reissues its own and serves it, and its calls
 * to the agents present the new one from then on ({@link AgentClient} follows
 * {@link ServerTrust#generation()}). Every party is named in the answer and in the audit trail.
 */
@ApplicationScoped
public class MeshRotation {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    /** How long one agent's two calls may take each: a key is made and a file pair written, no engine is asked. */
    static final Duration CALL = Duration.ofSeconds(10);

    @Inject
    MeshStore store;

    @Inject
    AuditTrail audit;

    @Inject
    ServedCertificate served;

    @Inject
    AgentClient agents;

    public RotateReport rotate(List<String> asked) {
        if (!ServerTrust.enabled()) {
            throw new Conflict("this controller serves plain HTTP (MESH_PLAIN_HTTP=yes): there are no certificates to rotate");
        }
        MeshCa ca = ServerTrust.issuer().orElseThrow(() -> new Conflict("this controller cannot issue certificates: it was"
                + " started without the mesh CA's key (MESH_CA_KEY; the seat's controller has it, docs/trust.md)"));
        Map<String, Node> nodes = new LinkedHashMap<>();
        store.inTransaction(c -> {
            store.nodes(c).forEach(n -> nodes.put(n.name(), n));
            return null;
        });
        List<String> unknown = CertRotation.unknown(asked, nodes.keySet());
        if (!unknown.isEmpty()) {
            throw new InvalidInput(List.of("--node: no node named " + String.join(", ", unknown)
                    + " in this mesh ('mesh node list' shows them); nothing was reissued"));
        }
        Set<String> wanted = asked.isEmpty() ? nodes.keySet() : Set.copyOf(asked);
        Map<String, Node> looked = nodes.entrySet().stream().filter(e -> wanted.contains(e.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
        Map<String, CertRotation.Look> looks = new LinkedHashMap<>();
        AgentClient.askAll(looked, a -> agents.statusQuickly(a)).forEach((name, answer) ->
                looks.put(name, answer.ok()
                        ? CertRotation.Look.serving(answer.value().certificateNotAfter() == null ? null
                                : Instant.parse(answer.value().certificateNotAfter()))
                        : CertRotation.Look.down(answer.failure())));
        List<CertRotation.Decision> decisions = CertRotation.decide(List.copyOf(nodes.keySet()), asked, looks, Instant.now());
        Map<String, Node> reissue = new LinkedHashMap<>();
        decisions.stream().filter(d -> d.reissue() && nodes.containsKey(d.party()))
                .forEach(d -> reissue.put(d.party(), nodes.get(d.party())));
        Map<String, AgentAnswer<CertificateServed>> done = AgentClient.askAll(reissue, a -> reissueAgent(ca, a));
        List<RotateReport.Party> parties = new ArrayList<>();
        for (CertRotation.Decision d : decisions) {
            AgentAnswer<CertificateServed> result = d.reissue() && d.party().equals(CertRotation.CONTROLLER)
                    ? reissueController(ca) : done.get(d.party());
            if (!d.reissue()) {
                parties.add(new RotateReport.Party(d.party(), "left", null, null, d.why(), d.asked()));
            } else if (result.ok()) {
                parties.add(new RotateReport.Party(d.party(), "reissued", result.value().serial(), result.value().notAfter(),
                        null, true));
            } else {
                parties.add(new RotateReport.Party(d.party(), "left", null, null, result.failure(), true));
            }
        }
        record(parties);
        boolean complete = parties.stream().noneMatch(p -> CertRotation.failed(p.reissued(), p.wasAsked()));
        return new RotateReport(parties, complete);
    }

    /** One agent: its new public key, a certificate for it, sent back and served. The agent's private key stays there. */
    private CertificateServed reissueAgent(MeshCa ca, Node a) {
        AgentKey key = agents.call(a, AgentApi.newKey(), CALL);
        java.security.PublicKey publicKey = Pem.publicKey(key.publicKey(), "node " + a.name() + "'s new public key");
        X509Certificate cert = ca.certify(MeshCa.Role.AGENT, a.name(), List.of(a.name(), a.address()),
                publicKey, Instant.now());
        CertificateServed served = agents.call(a, AgentApi.serve(new AgentCertificate(Pem.text(cert)
                + Pem.text(ca.certificate()))), CALL);
        LOG.infof("rotate-certs: node %s serves a new certificate (serial %s, until %s)", a.name(), served.serial(),
                served.notAfter());
        return served;
    }

    /** The controller's own: the answer's entry, or why it was left. */
    private AgentAnswer<CertificateServed> reissueController(MeshCa ca) {
        try {
            X509Certificate cert = served.reissueOwn(ca, Instant.now());
            LOG.infof("rotate-certs: the controller serves a new certificate (serial %s, until %s)",
                    cert.getSerialNumber().toString(16), cert.getNotAfter().toInstant());
            return AgentAnswer.of(new CertificateServed(cert.getSerialNumber().toString(16),
                    cert.getNotAfter().toInstant().toString()));
        } catch (java.io.IOException | RuntimeException e) {
            LOG.errorf("rotate-certs: the controller's certificate could not be replaced: %s", e.getMessage());
            return AgentAnswer.failed("its new certificate could not be put in place: " + e.getMessage());
        }
    }


    private void record(List<RotateReport.Party> parties) {
        List<String> reissued = parties.stream().filter(RotateReport.Party::reissued).map(RotateReport.Party::party).toList();
        Map<String, String> left = new LinkedHashMap<>();
        parties.stream().filter(p -> CertRotation.failed(p.reissued(), p.wasAsked()))
                .forEach(p -> left.put(p.party(), p.why()));
        if (reissued.isEmpty() && left.isEmpty()) {
            return;
        }
        store.inTransaction(c -> audit.record(c, "ca rotate-certs", CertRotation.summary(reissued, left)));
    }
}
