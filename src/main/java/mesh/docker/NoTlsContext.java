package mesh.docker;

import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * NoTlsContext is the SSL context handed to docker-java's httpclient5 transport for a unix socket,
 * which never speaks TLS. The transport insists on a context (without one it builds the JDK's
 * default and reads the trust store), and even {@code SSLContext.getInstance("TLS")} initialises the
 * JSSE provider: about 200 classes (cipher suites, the EC and RSA providers) the agent holds for
 * nothing, measured in docs/benchmarks.md. Written by hand because the JDK offers no context that is
 * not backed by a provider; every use fails with a message naming what was wrong.
 */
final class NoTlsContext extends SSLContext {

    NoTlsContext() {
        super(new Refusing(), null, "TLS");
    }

    /** Refusing is the provider-less implementation behind NoTlsContext: nothing may use it. */
    private static final class Refusing extends SSLContextSpi {

        private static IllegalStateException refused() {
            return new IllegalStateException("the Docker engine is reached over a unix socket, which uses no TLS");
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random) {
            throw refused();
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            throw refused();
        }
    }
}
