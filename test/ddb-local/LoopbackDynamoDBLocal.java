/*
 * Starts DynamoDB Local on 127.0.0.1 only, on a free port, and prints
 * "listening on 127.0.0.1:PORT" once it answers. Its own main listens on every
 * interface and has no option to choose one, so this builds the server from
 * the same command-line options and binds its (Jetty) connector to loopback
 * before starting it. run.ts launches this file as a single-file source
 * program with DynamoDBLocal.jar on the class path.
 */
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public class LoopbackDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer server = ServerRunner.createServerFromCommandLineArgs(args);
    ServerConnector connector = (ServerConnector) jettyOf(server).getConnectors()[0];
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.start();
    // start() reports a port it cannot take and returns; a port below 1 means no listener.
    if (connector.getLocalPort() < 1) System.exit(1);
    System.out.println("listening on 127.0.0.1:" + connector.getLocalPort());
  }

  /** The Jetty server DynamoDB Local keeps in a private field, not yet started. */
  private static Server jettyOf(DynamoDBProxyServer server) throws ReflectiveOperationException {
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    return (Server) field.get(server);
  }
}
