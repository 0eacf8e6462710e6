package com.example.secured;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The team's own security: its users in memory, HTTP Basic on every path, its orders for the ORDERS role.
 * The Camunda webapps keep their own login, as Camunda's guide for Spring Security says.
 */
@Configuration(proxyBeanMethods = false)
class HostSecurity {

  @Bean
  SecurityFilterChain hostChain(HttpSecurity http) throws Exception {
    return http
        .authorizeHttpRequests(requests -> requests
            // the error page too: a webapp's missing file would otherwise end in a Basic challenge, which
            // stops the webapps from loading in a browser
            .requestMatchers("/camunda/**", "/error").permitAll()
            .requestMatchers("/api/orders/**").hasRole("ORDERS")
            .anyRequest().authenticated())
        .httpBasic(Customizer.withDefaults())
        // the webapps protect themselves with their own CSRF token
        .csrf(csrf -> csrf.ignoringRequestMatchers("/camunda/**"))
        .build();
  }

  /** The team's users; {@link CamundaUsers} makes them Camunda users too (with other passwords). */
  @Bean
  UserDetailsService users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("mary").password("{noop}mary-secret").roles("ORDERS").build(),
        User.withUsername("tom").password("{noop}tom-secret").roles().build());
  }
}
