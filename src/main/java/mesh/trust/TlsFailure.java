package mesh.trust;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * TlsFailure turns a failed HTTPS exchange into words an operator can act on: not the mesh's CA
 * (another mesh, or a man in the middle), a certificate for another address, an expired one, a
 * plain-HTTP server, or our certificate refused. The JDK says these only in exception types and
 * messages, so they are read here, in one place; no message names a Java type.
 */
public final class TlsFailure {

    private TlsFailure() {
    }

    /** What went wrong at the TLS level talking to {@code url}, or null when it was not TLS. */
    public static String describe(Throwable e, String url) {
        boolean https = url != null && url.startsWith("https:");
        String all = messages(e);
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CertificateExpiredException) {
                return "TLS refused: its certificate has expired (mesh ca rotate-certs issues new ones)";
            }
            if (t instanceof CertPathBuilderException || t instanceof CertPathValidatorException) {
                return "TLS refused: its certificate was not issued by this mesh's CA (another mesh's server,"
                        + " or a man in the middle); nothing was sent";
            }
        }
        if (all.contains("No subject alternative") || all.contains("No name matching")) {
            return "TLS refused: its certificate is for another name or address than " + host(url) + "; nothing was sent";
        }
        if (all.contains("bad_certificate") || all.contains("certificate_unknown") || all.contains("certificate_required")
                || all.contains("unknown_ca")) {
            return "TLS refused by the other side: it does not accept this side's certificate (not of its mesh's CA, or none)";
        }
        if (https && (all.contains("Unsupported or unrecognized SSL message") || all.contains("plaintext connection"))) {
            return "it speaks plain HTTP, not HTTPS: is it a server of this mesh?";
        }
        if (!https && url != null && (all.contains("header parser received no bytes") || all.contains("Unexpected end of file")
                || all.contains("EOF reached while reading") || all.contains("closed"))) {
            return "no answer over plain HTTP: it serves HTTPS only (use an https:// URL)";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SSLHandshakeException || t instanceof SSLException) {
                return "TLS failed: " + t.getMessage();
            }
        }
        return null;
    }

    private static String host(String url) {
        try {
            return java.net.URI.create(url).getHost();
        } catch (RuntimeException e) {
            return url;
        }
    }

    private static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(' ').append(t.getMessage());
        }
        return b.toString();
    }
}
